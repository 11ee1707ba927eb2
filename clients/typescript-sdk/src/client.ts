// The client: the generated operations (openapi-fetch over openapi-typescript's
// types, `client.api.GET("/v1/games/{game_id}", …)`) through a fetch that
// retries with idempotency keys, plus what generation cannot give: answers
// unwrapped or thrown as ProblemError, `If-Match` on moves, and typed,
// resumable streams.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";
import { ProblemError } from "./problem.js";
import { DEFAULT_RETRY, type Fetch, type RetryPolicy, retryingFetch } from "./retry.js";
import { EventStream, type FollowOptions } from "./sse.js";
import {
  decodeFrame,
  endsGameStream,
  GAME_STREAM_EVENTS,
  type GameFrame,
  type GameStreamEvents,
  PLAYER_STREAM_EVENTS,
  type PlayerFrame,
  type PlayerStreamEvents,
} from "./streams.js";

type Schemas = components["schemas"];
export type Move = Schemas["Move"];
export type GameResource = Schemas["GameResource"];
export type LegalMovesResource = Schemas["LegalMovesResource"];
export type MoveAccepted = Schemas["MoveAccepted"];
export type CreateGameRequest = Schemas["CreateGameRequest"];
export type CreateSeekRequest = Schemas["CreateSeekRequest"];
export type SeekResource = Schemas["SeekResource"];
export type Inbox = Schemas["Inbox"];
export type ChallengeResource = Schemas["ChallengeResource"];
export type GameKindName = Schemas["GameKindName"];

export interface ClientOptions {
  /** The server, e.g. "http://127.0.0.1:8080". */
  baseUrl: string;
  /** A bearer token (register_player's `token`). */
  token?: string;
  retry?: Partial<RetryPolicy>;
  /** Another fetch (a test's, a proxy's); default the global one. */
  fetch?: Fetch;
}

export interface StreamOptions extends FollowOptions {
  /**
   * Authenticate each connection with a fresh stream ticket (`?ticket=`)
   * instead of the bearer header: what a browser's EventSource needs, and
   * keeps the token out of a stream proxied elsewhere.
   */
  useTickets?: boolean;
}

/** A call's data, or its refusal thrown as a ProblemError. */
export async function unwrap<D>(call: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  throw new ProblemError(response.status, error ?? null, numericRetryAfter(response));
}

function numericRetryAfter(response: Response): number | null {
  const value = response.headers.get("Retry-After");
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

export class CardClient {
  /** Every operation of the document, typed (openapi-fetch). */
  readonly api: ReturnType<typeof createClient<paths>>;
  readonly baseUrl: string;
  readonly token: string | undefined;
  private readonly rawFetch: Fetch;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    this.rawFetch = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    const policy = { ...DEFAULT_RETRY, ...options.retry };
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: retryingFetch(this.rawFetch, policy),
      headers: this.token === undefined ? {} : { Authorization: `Bearer ${this.token}` },
    });
  }

  /** Registers a new player and returns a client holding its token. */
  static async register(baseUrl: string, displayName: string, options: Omit<ClientOptions, "baseUrl" | "token"> = {}): Promise<CardClient> {
    const anonymous = new CardClient({ ...options, baseUrl });
    const player = await unwrap(anonymous.api.POST("/v1/players", { body: { display_name: displayName } }));
    return new CardClient({ ...options, baseUrl, token: player.token });
  }

  game(gameId: string): Promise<GameResource> {
    return unwrap(this.api.GET("/v1/games/{game_id}", { params: { path: { game_id: gameId } } }));
  }

  legalMoves(gameId: string): Promise<LegalMovesResource> {
    return unwrap(this.api.GET("/v1/games/{game_id}/legal-moves", { params: { path: { game_id: gameId } } }));
  }

  /**
   * Plays a move. With `version` (the game version it was decided on) it is
   * sent as `If-Match`: a game that moved since answers 412
   * `version_mismatch` instead of taking a move meant for another moment.
   */
  move(gameId: string, move: Move, options: { version?: number } = {}): Promise<MoveAccepted> {
    const header = options.version === undefined ? {} : { "If-Match": `"${options.version}"` };
    return unwrap(
      this.api.POST("/v1/games/{game_id}/moves", { params: { path: { game_id: gameId }, header }, body: move }),
    );
  }

  createGame(request: CreateGameRequest): Promise<GameResource> {
    return unwrap(this.api.POST("/v1/games", { body: request }));
  }

  createSeek(request: CreateSeekRequest): Promise<SeekResource> {
    return unwrap(this.api.POST("/v1/seeks", { body: request }));
  }

  /** Accepts a challenge; the last acceptance makes the game (`game_id`). */
  acceptChallenge(challengeId: string): Promise<ChallengeResource> {
    return unwrap(
      this.api.POST("/v1/challenges/{challenge_id}/accept", { params: { path: { challenge_id: challengeId } } }),
    );
  }

  /** Declines a challenge: it ends for everyone, no game. */
  declineChallenge(challengeId: string): Promise<ChallengeResource> {
    return unwrap(
      this.api.POST("/v1/challenges/{challenge_id}/decline", { params: { path: { challenge_id: challengeId } } }),
    );
  }

  inbox(): Promise<Inbox> {
    return unwrap(this.api.GET("/v1/players/me/inbox"));
  }

  /** A stream ticket (60 s) for `?ticket=`: a browser's EventSource cannot send Authorization. */
  async streamTicket(): Promise<string> {
    return (await unwrap(this.api.POST("/v1/stream-tickets"))).ticket;
  }

  /** A URL for a native EventSource on a seat's game stream (browsers): a ticket inside. */
  async gameStreamUrl(gameId: string, after?: number): Promise<string> {
    const query = new URLSearchParams({ ticket: await this.streamTicket() });
    if (after !== undefined) query.set("after", String(after));
    return `${this.baseUrl}/v1/games/${encodeURIComponent(gameId)}/stream?${query}`;
  }

  /**
   * A game's stream, typed (`snapshot`, each log event, `state`, `message`),
   * resumed by `Last-Event-ID` across reconnects; it ends after
   * `game_finished` (or 204 on a finished game). `lastEventId`: a seq.
   */
  followGame(gameId: string, options: StreamOptions = {}): EventStream<GameFrame> {
    const path = `/v1/games/${encodeURIComponent(gameId)}/stream`;
    return new EventStream<GameFrame>(
      this.connector(path, options),
      (raw) => decodeFrame<GameStreamEvents>(GAME_STREAM_EVENTS, raw),
      endsGameStream,
      options,
    );
  }

  /** The player's own stream (`your_turn`, `seek_matched`, …), resumed by its opaque ids. */
  followPlayer(options: StreamOptions = {}): EventStream<PlayerFrame> {
    return new EventStream<PlayerFrame>(
      this.connector("/v1/players/me/stream", options),
      (raw) => decodeFrame<PlayerStreamEvents>(PLAYER_STREAM_EVENTS, raw),
      () => false,
      options,
    );
  }

  private connector(path: string, options: StreamOptions) {
    return async (lastEventId: string | undefined, signal: AbortSignal): Promise<Response> => {
      const headers = new Headers({ Accept: "text/event-stream" });
      const query = new URLSearchParams();
      if (options.useTickets && this.token !== undefined) {
        // A ticket lasts a minute: a fresh one for each connection.
        query.set("ticket", await this.streamTicket());
        if (lastEventId !== undefined) query.set("after", lastEventId);
      } else {
        if (this.token !== undefined) headers.set("Authorization", `Bearer ${this.token}`);
        if (lastEventId !== undefined) headers.set("Last-Event-ID", lastEventId);
      }
      const url = `${this.baseUrl}${path}${query.size > 0 ? `?${query}` : ""}`;
      return this.rawFetch(new Request(url, { headers, signal }));
    };
  }
}
