// The load client: N games at once on a boardgame.io server, each match
// created and joined through the lobby's HTTP API, its four players each a
// boardgame.io Client over socket.io playing a legal card whenever it is
// their turn; a finished match is followed by a new one. Prints moves/s and
// the move's p50/p99 (sent until the mover's client holds the state after
// it: the server's acknowledgement), like loadgen.
//
//   node load.js --url http://127.0.0.1:8000 --games 16 --duration 15 --warmup 2 [--json]
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { performance } = require('node:perf_hooks');
const { TrickGame, legalCards } = require('./game');

function args() {
  const out = { url: 'http://127.0.0.1:8000', games: 16, duration: 15, warmup: 2, json: false };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (key === 'json') out.json = true;
    else out[key] = key === 'url' ? argv[++i] : Number(argv[++i]);
  }
  return out;
}

const opts = args();
const started = Date.now();
const countFrom = started + opts.warmup * 1000;
const stopAt = started + opts.duration * 1000;
const latencies = [];
const errors = {};
let moves = 0;
let gamesStarted = 0;
let gamesFinished = 0;

const fail = (code) => {
  errors[code] = (errors[code] || 0) + 1;
};

async function post(path, body) {
  const res = await fetch(opts.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

/** A seat's client: plays a legal card on each of its turns. */
function seat(matchID, playerID, credentials, done) {
  const client = Client({
    game: TrickGame,
    numPlayers: 4,
    matchID,
    playerID,
    credentials,
    // WebSocket from the start (socket.io's default begins with long polling).
    multiplayer: SocketIO({ server: opts.url, socketOpts: { transports: ['websocket'] } }),
  });
  let sentAt = 0;
  let sentFor = -1; // the _stateID the pending move was made on
  client.subscribe((state) => {
    if (!state) return;
    if (sentFor >= 0 && state._stateID > sentFor) {
      const now = Date.now();
      if (now >= countFrom && now <= stopAt) {
        moves += 1;
        latencies.push(performance.now() - sentAt);
      }
      sentFor = -1;
    }
    if (state.ctx.gameover) return done(client);
    if (Date.now() > stopAt) return done(client);
    if (sentFor >= 0 || state.ctx.currentPlayer !== playerID) return;
    const hand = state.G.hands[playerID] || [];
    const legal = legalCards(hand, state.G.trick);
    if (legal.length === 0) return fail('no_legal_card');
    sentAt = performance.now();
    sentFor = state._stateID;
    client.moves.play(legal[Math.floor(Math.random() * legal.length)]);
  });
  client.start();
  return client;
}

/** One match from creation to its end (or the run's). */
async function playMatch(slot) {
  const { matchID } = await post('/games/tricks/create', { numPlayers: 4 });
  const creds = [];
  for (let p = 0; p < 4; p++) {
    const joined = await post(`/games/tricks/${matchID}/join`, {
      playerID: String(p),
      playerName: `g${slot}p${p}`,
    });
    creds.push(joined.playerCredentials);
  }
  gamesStarted += 1;
  await new Promise((resolve) => {
    let ended = 0;
    const clients = [];
    const done = (client) => {
      if (client.ended) return;
      client.ended = true;
      if (++ended === 4) {
        if (clients.some((c) => c.getState()?.ctx.gameover)) gamesFinished += 1;
        setImmediate(() => clients.forEach((c) => c.stop()));
        resolve();
      }
    };
    for (let p = 0; p < 4; p++) clients.push(seat(matchID, String(p), creds[p], done));
    // A match that stops moving (a lost update) ends at the run's end.
    setTimeout(() => clients.forEach(done), Math.max(0, stopAt - Date.now()) + 1000);
  });
}

async function drive(slot) {
  while (Date.now() < stopAt) {
    try {
      await playMatch(slot);
    } catch (e) {
      fail(String(e.message || e).replace(/[^a-z0-9_]+/gi, '_'));
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  const ms = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
  return Math.round(ms * 100) / 100;
}

(async () => {
  await Promise.all(Array.from({ length: opts.games }, (_, i) => drive(i)));
  const seconds = opts.duration - opts.warmup;
  latencies.sort((a, b) => a - b);
  const report = {
    games: opts.games,
    seconds,
    moves,
    moves_per_sec: moves / seconds,
    post_move_ms: { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) },
    errors,
    games_started: gamesStarted,
    games_finished: gamesFinished,
  };
  if (opts.json) console.log(JSON.stringify(report));
  else
    console.log(
      `boardgame.io: ${report.games} games, ${report.moves_per_sec.toFixed(1)} moves/s, ` +
        `move p50 ${report.post_move_ms.p50} ms p99 ${report.post_move_ms.p99} ms`,
    );
  process.exit(0);
})();
