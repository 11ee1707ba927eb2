// @cardgames/sdk: the card table server's TypeScript SDK.
export type { components, operations, paths } from "./generated/api.js";
export {
  CardClient,
  unwrap,
  type ChallengeResource,
  type ClientOptions,
  type CreateGameRequest,
  type CreateSeekRequest,
  type GameKindName,
  type GameResource,
  type Inbox,
  type LegalMovesResource,
  type Move,
  type MoveAccepted,
  type SeekResource,
  type StreamOptions,
} from "./client.js";
export { ProblemError, type Problem, type ProblemCode } from "./problem.js";
export { DEFAULT_RETRY, newIdempotencyKey, retryingFetch, type RetryPolicy } from "./retry.js";
export { EventStream, parseEventStream, type FollowOptions, type RawEvent } from "./sse.js";
export {
  GAME_STREAM_EVENTS,
  PLAYER_STREAM_EVENTS,
  type Frame,
  type GameFrame,
  type GameStreamEvents,
  type PlayerFrame,
  type PlayerStreamEvents,
} from "./streams.js";
export { anyLegalMove, type Pick } from "./moves.js";
export { runBot, type AcceptChallenges, type Choose, type RunOptions, type RunSummary } from "./runner.js";
