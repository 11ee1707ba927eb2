// The stream-across-restart check (scripts/sdks.sh): a player plays seat 0 of
// a 2-player Lost Heir game against a bot, slowly, through the runner, while
// this follows the game's stream from its first event. The script kills and
// restarts the server mid-game (it prints `progress <n>` for each event so the
// script knows when). At the end every log event must have been received
// exactly once: seqs 1, 2, … up to the game's final version, none missing,
// none twice, and at least one reconnect must have happened.
import { CardClient, runBot } from "@cardgames/sdk";

const baseUrl = process.env.BASE_URL ?? "http://127.0.0.1:8080";
const moveDelayMs = Number(process.env.MOVE_DELAY_MS ?? "100");
const minReconnects = Number(process.env.MIN_RECONNECTS ?? "1");

function fail(message: string): never {
  console.error(`typescript stream check: ${message}`);
  process.exit(1);
}

const player = await CardClient.register(baseUrl, "TypeScript stream check");
const game = await player.createGame({
  kind: "lost-heir",
  config: { players: 2, partnerships: false, target: 40 },
  seats: ["open", "bot"],
  take_seat: 0,
  rated: false,
});
console.log(`game ${game.id}`);

const playing = runBot(player, {
  games: 1,
  choose: async (_game, legal) => {
    await new Promise((resolve) => setTimeout(resolve, moveDelayMs));
    return legal.moves?.[0];
  },
});

const stream = player.followGame(game.id, { lastEventId: "0", onReconnect: (n, why) => console.log(`reconnect ${n}: ${why}`) });
let last = 0;
let snapshots = 0;
for await (const frame of stream) {
  if (frame.event === "snapshot") {
    snapshots += 1;
    continue;
  }
  if (frame.event === "state" || frame.event === "message") continue;
  // Every other frame is a log event: its id is its seq.
  const seq = frame.data.seq;
  if (frame.id !== String(seq)) fail(`event ${frame.event} has id ${frame.id} but seq ${seq}`);
  if (seq <= last) fail(`seq ${seq} repeated (after ${last})`);
  if (seq !== last + 1) fail(`seq ${last + 1} to ${seq - 1} lost`);
  last = seq;
  console.log(`progress ${seq} ${frame.event}`);
}
const summary = await playing;
const final = await player.game(game.id);
if (final.status !== "finished") fail(`the stream ended but the game is ${final.status}`);
if (last !== final.version) fail(`received up to seq ${last}, the game's log ends at ${final.version}`);
if (stream.reconnects < minReconnects) fail(`${stream.reconnects} reconnects: the server was not restarted under the stream`);
console.log(
  `typescript stream check: ${last} events, seq 1..${last} each once, across ${stream.reconnects} reconnects ` +
    `(${snapshots} snapshots); the runner made ${summary.moves} moves (${summary.refusals} refused, ${summary.reconnects} player-stream reconnects)`,
);
