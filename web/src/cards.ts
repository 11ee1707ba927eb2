// Cards as text: every card reads as text, not only by colour. Names come
// from the document (x-enum-descriptions, names.gen.ts).
import type { HeirCard, StandardCard } from "./api";
import { CITIES, HEIR_CARDS, STANDARD_CARDS } from "./names.gen";

const SUITS: Record<string, string> = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_ORDER = ["C", "D", "S", "H"];
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const HEIR_RANKS = ["mayor", "chief", "commissioner", "detective", "captain", "sergeant", "policeman"];
const HEIR_SHORT: Record<string, string> = {
  mayor: "Mayor", chief: "Chief", commissioner: "Comm.", detective: "Det.",
  captain: "Capt.", sergeant: "Sgt.", policeman: "PC",
};
const CITY_ORDER = Object.keys(CITIES);

export function isStandard(card: string): card is StandardCard {
  return card in STANDARD_CARDS;
}

export interface Face {
  /** What is printed on the card: "Q♠", "Toronto Capt." */
  short: string;
  /** The full name: "queen of spades", "Toronto Captain" */
  name: string;
  /** A class for its colour / suit. */
  suit: string;
}

export function face(card: StandardCard | HeirCard | string): Face {
  if (isStandard(card)) {
    const suit = card.slice(-1);
    return { short: `${card.slice(0, -1)}${SUITS[suit] ?? suit}`, name: STANDARD_CARDS[card], suit: `suit-${suit}` };
  }
  const name = (HEIR_CARDS as Record<string, string>)[card] ?? card;
  const [city, rank] = card.split("-");
  if (city && rank && city in CITIES) {
    return { short: `${cityName(city)} ${HEIR_SHORT[rank] ?? rank}`, name, suit: `city-${city}` };
  }
  const short = card === "heir" ? "Lost Heir" : card === "wrong-boy" ? "Wrong Boy" : card === "blank" ? "Blank" : card;
  return { short, name, suit: `special-${card}` };
}

export function cityName(city: string): string {
  return (CITIES as Record<string, string>)[city] ?? city;
}

/** The accessible name of a card button: "Q♠ queen of spades". */
export function label(card: string): string {
  const f = face(card);
  return f.short === f.name ? f.name : `${f.short} ${f.name}`;
}

/** Sort key: by suit (clubs, diamonds, spades, hearts; cities in the document's order, then the specials), then rank. */
function key(card: string): number {
  if (isStandard(card)) {
    return SUIT_ORDER.indexOf(card.slice(-1)) * 100 + RANKS.indexOf(card.slice(0, -1));
  }
  const [city, rank] = card.split("-");
  if (city && rank && city in CITIES) return 1000 + CITY_ORDER.indexOf(city) * 100 + HEIR_RANKS.indexOf(rank);
  return 2000 + ["heir", "wrong-boy", "blank"].indexOf(card);
}

export function sorted<T extends string>(cards: readonly T[]): T[] {
  return [...cards].sort((a, b) => key(a) - key(b));
}
