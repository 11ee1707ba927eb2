// Plays one game of each kind against the server's bots through a client
// generated from openapi/openapi.json (openapi-typescript types, openapi-fetch
// calls), then a quick-play table: two players seek, end at one table and
// play it against each other; then an invite link followed into a seat and
// a challenge accepted, whose game they play; each game's record and
// verification are checked, and the quick-play game's post-game analysis
// requested and read.
//
// Every API type comes from ./generated/api.js (written by
// scripts/generated-clients.sh); nothing here restates a request or response
// shape, so `tsc --strict` checks this program against the document.
//
//   BASE_URL=http://127.0.0.1:8080 node play.js
// Exit status 0: the four games played to the end, recorded and verified.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type Schemas = components["schemas"];
type Move = Schemas["Move"];
type Legal = Schemas["LegalMovesResource"]["legal"];
type GameKind = Schemas["GameKindName"];
type CreateGame = Schemas["CreateGameRequest"];
type CreateSeek = Schemas["CreateSeekRequest"];
type Client = ReturnType<typeof createClient<paths>>;

const baseUrl = process.env.BASE_URL ?? "http://127.0.0.1:8080";
const deadline = Date.now() + 1000 * Number(process.env.PLAY_TIMEOUT_SECS ?? "300");

class ApiError extends Error {}

// One call's data, or the problem document (code, rule) the server answered.
async function must<D>(
  what: string,
  call: Promise<{ data?: D; error?: unknown; response: Response }>,
): Promise<D> {
  const { data, error, response } = await call;
  if (data === undefined) {
    throw new ApiError(`${what}: HTTP ${response.status} ${JSON.stringify(error ?? null)}`);
  }
  return data;
}

// A small seeded generator, so that a run can be repeated.
let rngState = Number(process.env.SEED ?? "13") >>> 0;
function random(n: number): number {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (((t ^ (t >>> 14)) >>> 0) % n);
}

function pickSome<T>(from: readonly T[], count: number): T[] {
  const rest = [...from];
  const chosen: T[] = [];
  while (chosen.length < count && rest.length > 0) chosen.push(...rest.splice(random(rest.length), 1));
  return chosen;
}

// A move in words; the switch is exhaustive over every move type of both kinds.
function describe(move: Move): string {
  switch (move.type) {
    case "bid":
      return `bid ${move.points}`;
    case "pass":
    case "accept":
    case "reject":
      return move.type;
    case "name_trumps":
      return `name ${move.city} trumps`;
    case "play":
      return `play ${move.card}`;
    case "pass_cards":
    case "discard":
      return `${move.type} ${move.cards.join(" ")}`;
    case "moon":
      return `moon ${move.choice}`;
    default: {
      const unknown: never = move;
      return `unknown move ${JSON.stringify(unknown)}`;
    }
  }
}

// Chooses from the listed legal moves; when there are too many to list
// (Cancellation Hearts' passes and discards), builds one from `legal`.
function choose(legal: Legal, moves: Move[] | null | undefined): Move | undefined {
  switch (legal.prompt) {
    case "none":
      return undefined;
    case "bid": {
      // Passing keeps the contracts modest; a bid is taken now and then.
      const bids = (moves ?? []).filter((m) => m.type === "bid");
      const pass = (moves ?? []).find((m) => m.type === "pass");
      if (legal.can_pass && pass && (bids.length === 0 || random(4) > 0)) return pass;
      return bids[random(bids.length)];
    }
    case "pass_cards":
      return { type: "pass_cards", cards: pickSome(legal.from, legal.count) };
    case "discard":
      return { type: "discard", cards: pickSome(legal.from, legal.count) };
    case "name_trumps": {
      const city = legal.cities[random(legal.cities.length)];
      return city === undefined ? undefined : { type: "name_trumps", city };
    }
    case "moon": {
      const choice = legal.choices[random(legal.choices.length)];
      return choice === undefined ? undefined : { type: "moon", choice };
    }
    case "decide":
    case "play_card":
    case "play":
      return moves && moves.length > 0 ? moves[random(moves.length)] : undefined;
    default: {
      const unknown: never = legal;
      throw new ApiError(`unknown prompt ${JSON.stringify(unknown)}`);
    }
  }
}

// JSON with sorted keys, to compare what was sent with what came back.
function canonical(value: object): string {
  return JSON.stringify(value, Object.keys(value).sort());
}

interface Played {
  kind: GameKind;
  moves: number;
  replayed: number;
}

async function playOne(api: Client, kind: GameKind, config: CreateGame["config"]): Promise<Played> {
  const seats: CreateGame["seats"] = Array.from({ length: config.players }, (_, i) => (i === 0 ? "open" : "bot"));
  const created = await must(
    `create_game ${kind}`,
    api.POST("/v1/games", { body: { kind, config, seats, take_seat: 0 } }),
  );
  const gameId = created.id;
  console.log(`${kind}: game ${gameId}, seat ${created.your_seat ?? "none"}, config ${JSON.stringify(created.config)}`);
  if (created.your_seat !== 0) throw new ApiError(`${kind}: the creator does not hold seat 0`);
  if (created.kind !== kind || canonical(created.config) !== canonical(config)) {
    throw new ApiError(`${kind}: created as ${created.kind} ${JSON.stringify(created.config)}, not as asked`);
  }
  const moves = await playToEnd([api], kind, gameId);
  return checkRecord(api, kind, gameId, moves);
}

// Plays every seat the `players` hold in the game until it is finished (bots
// play on their own); how many moves they made.
async function playToEnd(players: Client[], kind: GameKind, gameId: string): Promise<number> {
  const path = { game_id: gameId };
  const [first] = players;
  if (first === undefined) throw new ApiError(`${kind}: nobody to play`);
  let moves = 0;
  for (;;) {
    if (Date.now() > deadline) throw new ApiError(`${kind}: not finished in time after ${moves} moves`);
    const game = await must("get_game", first.GET("/v1/games/{game_id}", { params: { path } }));
    if (game.status === "finished") break;
    if (game.status !== "in_progress") throw new ApiError(`${kind}: game is ${game.status}`);
    let moved = false;
    let version = game.version;
    for (const api of players) {
      const legal = await must("get_legal_moves", api.GET("/v1/games/{game_id}/legal-moves", { params: { path } }));
      version = Math.max(version, legal.version);
      const move = choose(legal.legal, legal.moves);
      if (move === undefined) continue;
      const accepted = await must(`post_move ${describe(move)}`, api.POST("/v1/games/{game_id}/moves", { params: { path }, body: move }));
      moves += 1;
      moved = true;
      version = accepted.version;
      if (moves <= 3 || moves % 50 === 0) console.log(`  move ${moves}: ${describe(move)} -> version ${accepted.version}`);
    }
    if (!moved) {
      // A bot is to act: wait for the next event (at once when the game is over).
      await must(
        "wait_events",
        first.GET("/v1/games/{game_id}/events/wait", { params: { path, query: { after: version, timeout: 5 } } }),
      );
    }
  }
  return moves;
}

// The finished game's record and verification, checked.
async function checkRecord(api: Client, kind: GameKind, gameId: string, moves: number): Promise<Played> {
  const path = { game_id: gameId };
  const game = await must("get_game", api.GET("/v1/games/{game_id}", { params: { path } }));
  console.log(`${kind}: finished after ${moves} moves of the client's seats (version ${game.version}); outcome ${JSON.stringify(game.outcome)}`);
  if (!game.seed) throw new ApiError(`${kind}: no seed revealed at the end`);

  const record = await must(
    "export_record",
    api.GET("/v1/games/{game_id}/record", { params: { path, query: { format: "text" } }, parseAs: "text" }),
  );
  const expected = ['[Format "cardgames-record 1"]', `[Kind "${kind}"]`, `[Seed "${game.seed}"]`];
  for (const line of expected) {
    if (!record.split("\n").includes(line)) throw new ApiError(`${kind}: the record has no line ${line}`);
  }
  if (!/^\[Result "winners [0-9 ]+; scores [-0-9 ]+"\]$/m.test(record)) {
    throw new ApiError(`${kind}: the record has no final result`);
  }

  const report = await must("verify_game", api.GET("/v1/games/{game_id}/verify", { params: { path } }));
  if (!report.ok || report.problems.length > 0) {
    throw new ApiError(`${kind}: verify says ${JSON.stringify(report.problems)}`);
  }
  if (report.seed !== game.seed || report.game_id !== gameId) throw new ApiError(`${kind}: verify checked another seed or game`);
  const replayed = report.moves ?? 0;
  if (replayed < moves) throw new ApiError(`${kind}: verify replayed ${replayed} moves, the client alone made ${moves}`);
  console.log(
    `${kind}: record ${record.split("\n").length} lines; verify ok: ${report.rounds ?? "?"} rounds, ${replayed} moves replayed`,
  );
  return { kind, moves, replayed };
}

// A post-game analysis of the finished game, requested and read back
// (docs/analysis.md); a small budget keeps it quick.
async function analyse(api: Client, kind: GameKind, gameId: string): Promise<void> {
  const path = { game_id: gameId };
  let analysis = await must(
    "request_analysis",
    api.POST("/v1/games/{game_id}/analysis", { params: { path }, body: { playouts: 8 } }),
  );
  while (analysis.status === "queued" || analysis.status === "running") {
    if (Date.now() > deadline) throw new ApiError(`${kind}: the analysis never finished`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    analysis = await must(
      "get_analysis",
      api.GET("/v1/games/{game_id}/analysis", { params: { path, query: { playouts: 8 } } }),
    );
  }
  const seats = analysis.analysis?.seats ?? [];
  if (analysis.status !== "done" || seats.length === 0) {
    throw new ApiError(`${kind}: the analysis is ${analysis.status}: ${analysis.error ?? ""}`);
  }
  const decisions = seats.reduce((n, s) => n + s.decisions.length, 0);
  const mistakes = seats.reduce((n, s) => n + s.summary.mistakes, 0);
  const accuracy = seats.map((s) => `seat ${s.seat} ${s.summary.accuracy.toFixed(0)}%`).join(", ");
  console.log(
    `${kind}: analysis at ${analysis.playouts} playouts: ${decisions} decisions, ${mistakes} mistakes; accuracy ${accuracy}`,
  );
}

// A registered player's client.
async function newPlayer(name: string): Promise<Client> {
  const anonymous = createClient<paths>({ baseUrl });
  const player = await must("register_player", anonymous.POST("/v1/players", { body: { display_name: name } }));
  return createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${player.token}` } });
}

// Quick play: two players seek a 2-player Lost Heir table; the second seek
// completes it (the answer says where it sits), the first learns its seat
// from its seek and its inbox, and both play the game to the end.
async function quickPlay(): Promise<Played> {
  const [ann, bob] = [await newPlayer("TypeScript seeker A"), await newPlayer("TypeScript seeker B")];
  const ask: CreateSeek = { kind: "lost-heir", players: { min: 2, max: 2 }, target: 15, variants: ["bidder_contract"] };
  const first = await must("create_seek", ann.POST("/v1/seeks", { body: ask }));
  if (first.status !== "active") throw new ApiError(`quick play: the first seek is ${first.status}`);
  const second = await must("create_seek", bob.POST("/v1/seeks", { body: { kind: "lost-heir", players: { min: 2, max: 2 } } }));
  const gameId = second.game_id;
  if (second.status !== "matched" || !gameId || second.seat !== 1) {
    throw new ApiError(`quick play: the second seek is ${second.status}, seat ${second.seat ?? "none"}`);
  }
  const mine = await must("get_seek", ann.GET("/v1/seeks/{seek_id}", { params: { path: { seek_id: first.id } } }));
  if (mine.status !== "matched" || mine.game_id !== gameId || mine.seat !== 0) {
    throw new ApiError(`quick play: the first seek is ${mine.status} at ${mine.game_id ?? "no game"}`);
  }
  const inbox = await must("get_inbox", ann.GET("/v1/players/me/inbox"));
  if (!inbox.seeks.some((s) => s.seek_id === first.id && s.game_id === gameId && s.seat === 0)) {
    throw new ApiError(`quick play: the inbox does not tell the first seeker: ${JSON.stringify(inbox.seeks)}`);
  }
  const game = await must("get_game", ann.GET("/v1/games/{game_id}", { params: { path: { game_id: gameId } } }));
  if (game.config.players !== 2 || game.config.target !== 15 || !("bidder_contract" in game.config) || !game.config.bidder_contract) {
    throw new ApiError(`quick play: the table is not as asked: ${JSON.stringify(game.config)}`);
  }
  console.log(`quick play: ${game.kind} game ${gameId} formed from two seeks, config ${JSON.stringify(game.config)}`);
  const moves = await playToEnd([ann, bob], "lost-heir", gameId);
  const played = await checkRecord(ann, "lost-heir", gameId, moves);
  await analyse(bob, "lost-heir", gameId);
  return played;
}

// The same table: the host mints a single-use invite link to the open seat
// of a waiting game and the guest follows it (get_invite without a token,
// then accept_invite): the game starts; then the host challenges the guest
// to another game, the guest finds it in the inbox and accepts, and both
// play the challenge's game to the end.
async function sameTable(): Promise<Played> {
  const [host, guest] = [await newPlayer("TypeScript host"), await newPlayer("TypeScript guest")];
  const waiting = await must("create_game", host.POST("/v1/games", {
    body: { kind: "lost-heir", config: { players: 2, target: 15 }, seats: ["open", "open"], take_seat: 0 } }));
  const link = await must("create_invite", host.POST("/v1/games/{game_id}/invites", {
    params: { path: { game_id: waiting.id } }, body: { uses: "single" } }));
  const anonymous = createClient<paths>({ baseUrl });
  const seen = await must("get_invite", anonymous.GET("/v1/invites/{token}", { params: { path: { token: link.token } } }));
  if (!seen.usable || seen.game.id !== waiting.id) throw new ApiError(`invite: the link is not usable: ${JSON.stringify(seen)}`);
  const seated = await must("accept_invite", guest.POST("/v1/invites/{token}/accept", { params: { path: { token: link.token } }, body: {} }));
  if (seated.your_seat !== 1 || seated.status !== "in_progress") {
    throw new ApiError(`invite: the guest sits at ${seated.your_seat ?? "no seat"}, the game is ${seated.status}`);
  }
  console.log(`invite: ${link.path} seated the guest at seat 1 of ${waiting.id}`);
  const guestId = seated.seats[1]?.player_id;
  if (!guestId) throw new ApiError("invite: the guest's seat names nobody");
  const asked = await must("create_challenge", host.POST("/v1/challenges", {
    body: { kind: "lost-heir", config: { players: 2, target: 15 }, challenged: [guestId] } }));
  const inbox = await must("get_inbox", guest.GET("/v1/players/me/inbox"));
  if (!inbox.challenges.some((c) => c.id === asked.id)) throw new ApiError("challenge: not in the guest's inbox");
  const accepted = await must("accept_challenge", guest.POST("/v1/challenges/{challenge_id}/accept", {
    params: { path: { challenge_id: asked.id } } }));
  const gameId = accepted.game_id;
  if (accepted.status !== "accepted" || !gameId) throw new ApiError(`challenge: ${accepted.status}, no game`);
  console.log(`challenge: ${asked.id} accepted, game ${gameId} started`);
  const moves = await playToEnd([host, guest], "lost-heir", gameId);
  return checkRecord(host, "lost-heir", gameId, moves);
}

async function main(): Promise<void> {
  const api = await newPlayer("TypeScript client");

  const played = [
    await playOne(api, "lost-heir", { players: 2, partnerships: false, target: 40 }),
    await playOne(api, "cancellation-hearts", { players: 6, target: 100, all_cancelled: "extend" }),
    await quickPlay(),
    await sameTable(),
  ];
  const moves = played.reduce((n, p) => n + p.moves, 0);
  const replayed = played.reduce((n, p) => n + p.replayed, 0);
  console.log(
    `typescript client: ${played.length} games played, ${moves} moves made (${replayed} with the bots'), ${played.length} verified`,
  );
}

main().catch((e: unknown) => {
  console.error(`typescript client: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
