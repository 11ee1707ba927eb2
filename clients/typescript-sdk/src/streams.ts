// The streams' frames, typed: each `event:` name mapped to the component
// schema of its `data:` (the document describes `data` only as a JSON string
// with a `contentSchema`, which generators do not read). A frame narrows by
// its `event`: `if (frame.event === "move") frame.data.payload` type-checks.
import type { components } from "./generated/api.js";
import type { RawEvent } from "./sse.js";

type Schemas = components["schemas"];
type LogEvent = Schemas["EventResource"];
type LogEventName = LogEvent["type"];

/** `stream_game`: event name -> data. */
export type GameStreamEvents = {
  snapshot: Schemas["GameResource"];
  state: Schemas["GameStateResource"];
  message: Schemas["MessageResource"];
} & { [Name in LogEventName]: Extract<LogEvent, { type: Name }> };

/** `stream_player`: event name -> data. */
export interface PlayerStreamEvents {
  your_turn: Schemas["YourTurn"];
  seek_matched: Schemas["SeekMatched"];
  challenge: Schemas["ChallengeResource"];
  seat_taken: Schemas["GameNotice"];
  game_started: Schemas["GameNotice"];
  game_over: Schemas["GameNotice"];
}

/** One frame: its name, its `id:` (null when it had none) and its typed data. */
export type Frame<Events> = {
  [Name in keyof Events & string]: { event: Name; id: string | null; data: Events[Name] };
}[keyof Events & string];

export type GameFrame = Frame<GameStreamEvents>;
export type PlayerFrame = Frame<PlayerStreamEvents>;

// The names at run time. The type checks below fail the build when the
// document gains an event these lists lack (or loses one they name).
const LOG_EVENTS = [
  "seat_taken",
  "seat_left",
  "game_started",
  "move",
  "autoplay",
  "deadline_expired",
  "game_finished",
  "game_expired",
  "seat_resigned",
  "hint_given",
] as const satisfies readonly LogEventName[];
export const GAME_STREAM_EVENTS = ["snapshot", "state", "message", ...LOG_EVENTS] as const satisfies readonly (keyof GameStreamEvents)[];
export const PLAYER_STREAM_EVENTS = [
  "your_turn",
  "seek_matched",
  "challenge",
  "seat_taken",
  "game_started",
  "game_over",
] as const satisfies readonly (keyof PlayerStreamEvents)[];

type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : { missing: Exclude<All, Listed> };
const gameEventsCovered: Covers<keyof GameStreamEvents, (typeof GAME_STREAM_EVENTS)[number]> = true;
const playerEventsCovered: Covers<keyof PlayerStreamEvents, (typeof PLAYER_STREAM_EVENTS)[number]> = true;
void gameEventsCovered;
void playerEventsCovered;

/** A frame's data parsed; undefined for an event name this SDK does not know (a newer server's). */
export function decodeFrame<Events>(known: readonly string[], raw: RawEvent): Frame<Events> | undefined {
  if (!known.includes(raw.event)) return undefined;
  // Which fields the data has is the document's promise for that event name.
  return { event: raw.event, id: raw.hasId ? raw.id : null, data: JSON.parse(raw.data) } as Frame<Events>;
}

/** The game stream's last frame: the game is over and the server closes it. */
export function endsGameStream(frame: GameFrame): boolean {
  return frame.event === "game_finished" || frame.event === "game_expired";
}
