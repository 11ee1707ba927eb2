// The table in words: seat names, moves and log events as sentences for
// people, shared by the live table, the replay and the round summary.
import type { EventResource, Game, Move, Schemas } from "./api";
import { cityName, face, isStandard, label } from "./cards";

export const KIND_NAME: Record<string, string> = { "lost-heir": "Lost Heir", "cancellation-hearts": "Cancellation Hearts" };

export function seatName(game: Pick<Game, "seats">, seat: number): string {
  const s = game.seats[seat];
  if (!s) return `seat ${seat}`;
  if (s.occupant === "bot") return `Bot ${seat}`;
  return s.display_name ?? `open seat ${seat}`;
}

/** How a bot seat is tagged: "bot" for the sensible bot, else its level. */
export function botTag(level: Schemas["BotLevel"] | null | undefined): string {
  return !level || level === "sensible" ? "bot" : `${level} bot`;
}

/** A card in a sentence: "Q♠ queen of spades", "Toronto Chief of Police". */
export function cardText(card: string): string {
  return isStandard(card) ? label(card) : face(card).name;
}

export function suitName(s: string): string {
  return ({ C: "clubs ♣", D: "diamonds ♦", H: "hearts ♥", S: "spades ♠" } as Record<string, string>)[s] ?? s;
}

export function moveText(move: Move | Schemas["RedactedMove"] | Schemas["MovePlayed"]): string {
  const m = move as Record<string, unknown> & { type: string };
  switch (m.type) {
    case "pass": return "passes";
    case "bid": return `bids ${String(m.points)}`;
    case "accept": return "accepts the bid";
    case "reject": return "rejects the bid";
    case "name_trumps": return `names ${cityName(String(m.city))} trumps`;
    case "play": return `plays ${cardText(String(m.card))}`;
    case "pass_cards": return Array.isArray(m.cards) ? `passes ${(m.cards as string[]).map(cardText).join(", ")}` : "passes three cards";
    case "discard": return Array.isArray(m.cards) ? `discards ${(m.cards as string[]).map(cardText).join(", ")}` : "discards";
    case "moon": return m.choice === "subtract_own" ? "shoots the moon: subtracts 26 from their own score" : m.choice === "add_to_others" ? "shoots the moon: adds 26 to everyone else" : "chooses how to score the moon";
    default: return m.type;
  }
}

export function eventText(game: Pick<Game, "seats">, e: EventResource): string {
  const who = (seat: number | null | undefined) => (seat === null || seat === undefined ? "the server" : seatName(game, seat));
  switch (e.type) {
    case "move": return `${who(e.actor.seat)}${e.actor.deadline ? " (deadline, bot)" : e.actor.bot && game.seats[e.actor.seat ?? -1]?.occupant !== "bot" ? " (bot)" : ""} ${moveText(e.payload)}`;
    case "seat_taken": return `${who(e.payload.seat)} sits down`;
    case "seat_left": return `seat ${e.payload.seat} is free again`;
    case "game_started": return "the game starts";
    case "game_finished": return "the game is over";
    case "autoplay": return `${who(e.payload.seat)} ${e.payload.enabled ? "hands the seat to the bot" : "takes the seat back"}`;
    case "deadline_expired": return `${who(e.payload.seat)} ran out of time`;
    case "game_expired": return "the game expired unplayed";
    case "hint_given": return `${who(e.payload.seat)} asks the expert for a hint${e.payload.move ? ` (its choice: ${hintedMove(e.payload.move)})` : ""}`;
    case "seat_resigned": return `${who(e.payload.seat)} resigns${e.payload.policy === "end_game" ? ": the game ends" : ": the bot plays the seat"}`;
    default: return "event";
  }
}

/** A hinted move in few words: the card ("7♥ seven of hearts"), else the move ("bids 6"). */
function hintedMove(move: Move): string {
  const m = move as { type: string; card?: string };
  return m.type === "play" && m.card ? cardText(m.card) : moveText(move);
}

/** "Ann", "Ann and Bot 2", "Ann, Bot 1 and Bot 2". */
export function listNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "nobody";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** "1 point", "-3 points". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${Math.abs(n) === 1 ? one : many}`;
}
