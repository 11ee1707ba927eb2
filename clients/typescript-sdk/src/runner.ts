// The bot runner: give it `choose(game, legal) -> move` and it plays every
// game the account sits in. It follows the player stream (`your_turn` for
// each turn, every waiting game first on connect), so it picks up where it
// left off after its own restart or the server's; sweeps the inbox now and
// then in case a notice was missed; re-reads on 412/not_your_turn; falls back
// to a legal move when its choice is refused; given a seek, seeks a table at
// start and again after each game; and, given `acceptChallenges`, answers the
// challenges waiting for it (on the stream's `challenge` frame and on each
// inbox read) and plays the games they make.
import {
  type CardClient,
  type ChallengeResource,
  type CreateSeekRequest,
  type GameResource,
  type LegalMovesResource,
  type Move,
} from "./client.js";
import { anyLegalMove } from "./moves.js";
import { ProblemError } from "./problem.js";
import { sleep } from "./retry.js";
import type { StreamOptions } from "./client.js";

export type Choose = (game: GameResource, legal: LegalMovesResource) => Move | undefined | Promise<Move | undefined>;

/**
 * Which challenges the runner accepts: `true` all, a predicate those it
 * allows. The others are left pending (another program or person may still
 * answer them) unless `declineOthers` is set.
 */
export type AcceptChallenges =
  | boolean
  | { accept: (challenge: ChallengeResource) => boolean; declineOthers?: boolean };

export interface RunOptions {
  /** Decides a move from the game as the seat sees it and the legal moves; undefined: any legal move. */
  choose: Choose;
  /** Seek a table like this at start and after each game over (quick play). */
  seek?: CreateSeekRequest;
  /** Stop after this many of the account's games are over (default: run until the signal). */
  games?: number;
  signal?: AbortSignal;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  stream?: StreamOptions;
  /** Games played at once (default 4): one slow game never holds up the others' turns beyond it. */
  concurrency?: number;
  /** How often to read the inbox for turns a stream might have missed (default 30 s). */
  sweepSecs?: number;
  /** Answer the challenges waiting for this account (default: leave them). */
  acceptChallenges?: AcceptChallenges;
}

export interface RunSummary {
  /** Games of the account that ended while it ran. */
  gamesOver: number;
  moves: number;
  /** Moves the server refused (each turn still got a legal move after). */
  refusals: number;
  reconnects: number;
  gameIds: string[];
  /** Challenges this runner accepted (and declined, with `declineOthers`). */
  challengesAccepted: number;
  challengesDeclined: number;
}

/** Tries a turn this many times (re-reading each time) before leaving it to the next notice or sweep. */
const ATTEMPTS_PER_TURN = 5;

export async function runBot(client: CardClient, options: RunOptions): Promise<RunSummary> {
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const signal = controller.signal;
  const log = options.log ?? (() => undefined);
  const summary: RunSummary = {
    gamesOver: 0,
    moves: 0,
    refusals: 0,
    reconnects: 0,
    gameIds: [],
    challengesAccepted: 0,
    challengesDeclined: 0,
  };
  const seekIds: string[] = [];

  const playTurn = async (gameId: string): Promise<void> => {
    let fallback = false;
    for (let attempt = 0; attempt < ATTEMPTS_PER_TURN && !signal.aborted; attempt += 1) {
      const legal = await client.legalMoves(gameId);
      if (legal.count === 0 || legal.legal.prompt === "none") return;
      const game = await client.game(gameId);
      const move = (fallback ? undefined : await options.choose(game, legal)) ?? anyLegalMove(legal);
      if (move === undefined) return;
      try {
        await client.move(gameId, move, { version: legal.version });
        summary.moves += 1;
        if (!summary.gameIds.includes(gameId)) summary.gameIds.push(gameId);
        return;
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        summary.refusals += 1;
        log(`game ${gameId}: ${JSON.stringify(move)} refused: ${error.message}`);
        if (isOver(error)) return;
        // 422: the choice was illegal; play a listed or built legal move instead.
        if (error.status === 422) fallback = true;
        // 412 / not_your_turn: the game moved on; read it again.
      }
    }
  };

  const turns = new TurnQueue(async (gameId) => {
    try {
      await playTurn(gameId);
    } catch (error) {
      // Out of retries (the server away for long): the next notice or sweep comes back to it.
      if (!signal.aborted) log(`game ${gameId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }, options.concurrency ?? 4);

  const seek = async (): Promise<void> => {
    if (options.seek === undefined || signal.aborted) return;
    try {
      const created = await client.createSeek(options.seek);
      seekIds.push(created.id);
      log(`seek ${created.id}: ${created.status}`);
    } catch (error) {
      log(`seek refused: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  // The inbox lists exactly the challenges waiting for this account's answer; each is answered once.
  const answered = new Set<string>();
  const answerChallenge = async (challenge: ChallengeResource): Promise<void> => {
    const decision = challengeDecision(options.acceptChallenges, challenge);
    if (decision === "leave" || answered.has(challenge.id)) return;
    try {
      if (decision === "accept") {
        const after = await client.acceptChallenge(challenge.id);
        summary.challengesAccepted += 1;
        log(`challenge ${challenge.id}: accepted (${after.status}${after.game_id ? `, game ${after.game_id}` : ""})`);
      } else {
        await client.declineChallenge(challenge.id);
        summary.challengesDeclined += 1;
        log(`challenge ${challenge.id}: declined`);
      }
      answered.add(challenge.id);
    } catch (error) {
      if (error instanceof ProblemError) answered.add(challenge.id);
      // A refusal: ended meanwhile (withdrawn, expired, declined by another), nothing to play;
      // anything else (the server away) is tried again on the next inbox read.
      log(`challenge ${challenge.id}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const readInbox = async (): Promise<void> => {
    try {
      const inbox = await client.inbox();
      for (const waiting of inbox.games) turns.schedule(waiting.game_id);
      for (const challenge of inbox.challenges ?? []) await answerChallenge(challenge);
    } catch (error) {
      log(`inbox: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  const sweep = (async () => {
    const every = 1000 * (options.sweepSecs ?? 30);
    while (!signal.aborted) {
      await sleep(every, signal);
      if (signal.aborted) return;
      await readInbox();
    }
  })();

  const stream = client.followPlayer({
    ...options.stream,
    signal,
    onReconnect: (n, reason) => {
      summary.reconnects = n;
      log(`player stream: reconnect ${n} (${reason})`);
      options.stream?.onReconnect?.(n, reason);
    },
  });
  try {
    await seek();
    // Challenges made while the runner was away have no frame coming.
    if (options.acceptChallenges) await readInbox();
    for await (const frame of stream) {
      switch (frame.event) {
        case "your_turn":
          turns.schedule(frame.data.game_id);
          break;
        case "seek_matched":
          log(`seek ${frame.data.seek_id}: seated at ${frame.data.game_id}, seat ${frame.data.seat}`);
          break;
        case "game_over":
          summary.gamesOver += 1;
          log(`game ${frame.data.game_id} over (${summary.gamesOver})`);
          if (options.games !== undefined && summary.gamesOver >= options.games) {
            controller.abort();
            return summary;
          } else {
            await seek();
          }
          break;
        case "challenge":
          // The frame comes to every player of it, on each answer too; the inbox
          // says which wait for this account's answer.
          if (options.acceptChallenges && frame.data.status === "pending") await readInbox();
          break;
        case "seat_taken":
        case "game_started":
          break;
      }
    }
  } finally {
    controller.abort();
    await turns.idle();
    await sweep;
    await cancelSeeks(client, seekIds);
  }
  return summary;
}

type ChallengeDecision = "accept" | "decline" | "leave";

function challengeDecision(option: AcceptChallenges | undefined, challenge: ChallengeResource): ChallengeDecision {
  if (option === undefined || option === false) return "leave";
  if (option === true) return "accept";
  if (option.accept(challenge)) return "accept";
  return option.declineOthers ? "decline" : "leave";
}

function isOver(error: ProblemError): boolean {
  return ["game_over", "game_not_in_progress", "game_expired", "not_seated", "seat_forfeited", "game_not_found"].includes(
    error.code,
  );
}

/** Seeks still active when the runner stops would seat it at a table nobody plays. */
async function cancelSeeks(client: CardClient, seekIds: string[]): Promise<void> {
  for (const seekId of seekIds) {
    await client.api.DELETE("/v1/seeks/{seek_id}", { params: { path: { seek_id: seekId } } }).catch(() => undefined);
  }
}

/** Turns by game: at most `limit` games at once, one turn per game at a time, a notice during a turn replays it after. */
class TurnQueue {
  private readonly running = new Set<string>();
  private readonly again = new Set<string>();
  private readonly waiting: string[] = [];
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly play: (gameId: string) => Promise<void>,
    private readonly limit: number,
  ) {}

  schedule(gameId: string): void {
    if (this.running.has(gameId)) this.again.add(gameId);
    else if (!this.waiting.includes(gameId)) this.waiting.push(gameId);
    this.pump();
  }

  idle(): Promise<void> {
    if (this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running.size < this.limit && this.waiting.length > 0) {
      const gameId = this.waiting.shift() as string;
      this.running.add(gameId);
      void this.play(gameId).finally(() => {
        this.running.delete(gameId);
        if (this.again.delete(gameId)) this.waiting.push(gameId);
        this.pump();
        if (this.running.size === 0) {
          for (const resolve of this.idleWaiters.splice(0)) resolve();
        }
      });
    }
  }
}
