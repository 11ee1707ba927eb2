// Moves built from what `get_legal_moves` says. Most prompts list every legal
// move in `moves`; a pass or a discard of several cards from a large hand has
// too many to list (`moves` is null), so `legal` describes it instead.
import type { components } from "./generated/api.js";

type Schemas = components["schemas"];
type Move = Schemas["Move"];
type LegalMovesResource = Schemas["LegalMovesResource"];

/** A random index below n (replace it to make choices reproducible). */
export type Pick = (n: number) => number;
const randomPick: Pick = (n) => Math.floor(Math.random() * n);

function pickSome<T>(from: readonly T[], count: number, pick: Pick): T[] {
  const rest = [...from];
  const chosen: T[] = [];
  while (chosen.length < count && rest.length > 0) chosen.push(...rest.splice(pick(rest.length), 1));
  return chosen;
}

/** Some legal move (at random by default), or undefined when the seat has nothing to do. */
export function anyLegalMove(legal: LegalMovesResource, pick: Pick = randomPick): Move | undefined {
  const listed = legal.moves ?? [];
  if (listed.length > 0) return listed[pick(listed.length)];
  const l = legal.legal;
  switch (l.prompt) {
    case "pass_cards":
      return { type: "pass_cards", cards: pickSome(l.from, l.count, pick) };
    case "discard":
      return { type: "discard", cards: pickSome(l.from, l.count, pick) };
    case "name_trumps": {
      const city = l.cities[pick(l.cities.length)];
      return city === undefined ? undefined : { type: "name_trumps", city };
    }
    case "moon": {
      const choice = l.choices[pick(l.choices.length)];
      return choice === undefined ? undefined : { type: "moon", choice };
    }
    default:
      return undefined;
  }
}
