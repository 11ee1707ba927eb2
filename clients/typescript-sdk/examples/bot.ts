// A bot in 20 lines: seeks a rated table (bots fill the empty seats after a
// second; SEEK=0: no seek), accepts the challenges made to it
// (ACCEPT_CHALLENGES=1), plays every game its account sits in, passes when it
// may, and otherwise plays any legal move. KIND=cancellation-hearts for the other game.
import { CardClient, anyLegalMove, runBot, type GameKindName } from "@cardgames/sdk";

const baseUrl = process.env.BASE_URL ?? "http://127.0.0.1:8080";
const kind = (process.env.KIND ?? "lost-heir") as GameKindName;
const client = process.env.TOKEN
  ? new CardClient({ baseUrl, token: process.env.TOKEN })
  : await CardClient.register(baseUrl, "TypeScript example bot");

const summary = await runBot(client, {
  seek: process.env.SEEK === "0" ? undefined : { kind, rated: true, bots: { after_secs: 1 } },
  acceptChallenges: process.env.ACCEPT_CHALLENGES === "1",
  games: Number(process.env.GAMES ?? "1"),
  choose: (_game, legal) => legal.moves?.find((move) => move.type === "pass") ?? anyLegalMove(legal),
  log: (line) => console.log(`  ${line}`),
});
console.log(`typescript bot: ${summary.gamesOver} games over, ${summary.moves} moves, ${summary.refusals} refused`);
