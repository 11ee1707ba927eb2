// A negative fixture: scripts/generated-clients.sh asserts that `tsc --strict`
// REJECTS this file, with one error per marked line (and none elsewhere), so
// that a typo'd move cannot reach the server from a program built on the
// generated types. Each line's expected error is in its comment.
import type { components } from "./generated/api.js";

type Move = components["schemas"]["Move"];

export const typos: Move[] = [
  { type: "play", card: "QS" }, // fine: the control
  { type: "plya", card: "QS" }, // TYPO: an unknown move type
  { type: "play", card: "QX" }, // TYPO: no such card
  { type: "bid", points: "7" }, // TYPO: points is a number
  { type: "name_trumps", city: "torono" }, // TYPO: no such city
  { type: "pass_cards", cards: ["2C", "3C", "KZ"] }, // TYPO: no such card in a pass
];
