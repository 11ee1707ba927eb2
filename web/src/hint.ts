// The Hint button at the live table (issue 35 point 4; docs/analysis.md,
// "Hints"): shown only in a game created with hints (never a rated one) and
// only when I have a decision to make. It asks request_hint, outlines the
// suggested card(s) on my hand and says the move and its expected value;
// the seat's hints used come with each answer. A hint holds while the
// decision does (the same legal moves offered); asking again for the same
// decision answers the same hint and is not counted twice (the server's rule).
import { api, problemText, type Game, type LegalMoves, type Move, type Schemas } from "./api";
import { cardsOf, shortMove, signed } from "./analysis";
import { h } from "./dom";

type Hint = Schemas["Hint"];

/** A decision's identity: the legal moves offered (they change when anyone's move changes mine). */
function decisionKey(legal: LegalMoves | null): string {
  return legal ? JSON.stringify(legal.legal) : "";
}

function sameMove(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** "The expert would play 7♥ (expected +1.2; the next best 9♥ +0.4)". */
export function hintText(hint: Hint): string {
  const move = hint.move as Move;
  if (hint.forced) return sentence(`Only one move is legal: ${shortMove(move)}`);
  const value = hint.candidates.find((c) => sameMove(c.move, hint.move))?.value;
  if (hint.value_kind !== "expected_standing" || value === null || value === undefined) {
    return `The expert would play ${shortMove(move)} (too many choices to search: its usual choice).`;
  }
  const next = hint.candidates.filter((c) => !sameMove(c.move, hint.move) && c.value !== null && c.value !== undefined)
    .sort((a, b) => (b.value ?? 0) - (a.value ?? 0))[0];
  const runnerUp = next ? `; the next best, ${shortMove(next.move as Move)}, ${signed(next.value ?? 0)}` : "";
  return `The expert would play ${shortMove(move)} (expected ${signed(value)}${runnerUp}).`;
}

/** Ends `text` with one full stop (a short name may end with its own: "Halifax Det."). */
function sentence(text: string): string {
  return text.endsWith(".") ? text : `${text}.`;
}

export class HintBox {
  private hint: { key: string; data: Hint } | null = null;
  private asking: string | null = null;
  private problem = "";
  private used: number | null = null;

  constructor(private readonly gameId: string, private readonly render: () => void) {}

  /** The button and its answer beside "Your turn"; null when the game allows no hints or nothing is mine to decide. */
  element(g: Game, legal: LegalMoves | null): HTMLElement | null {
    const deciding = legal !== null && legal.legal.prompt !== "none";
    if (!g.hints || g.your_seat === null || g.your_seat === undefined || g.status !== "in_progress" || !deciding) return null;
    const key = decisionKey(legal);
    if (this.hint && this.hint.key !== key) { this.hint = null; this.problem = ""; }
    const busy = this.asking === key;
    return h("span", { class: "hint-box", id: "hint-box" },
      h("button", { type: "button", id: "hint", "data-key": "hint", disabled: busy, "aria-describedby": "hint-text",
        onclick: () => void this.ask(key) }, busy ? "Thinking…" : "Hint"),
      h("span", { id: "hint-text", class: this.problem ? "error" : "hint-text", "aria-live": "polite",
        title: "expected: the seat's expected standing at the round's end, points ahead of (+) or behind (−) the others' mean" },
        this.problem || (this.hint ? hintText(this.hint.data) : "")),
      this.used !== null ? h("span", { class: "muted small", id: "hints-used" }, `hints used: ${this.used}`) : null);
  }

  /** After each render: the suggested card(s) outlined on my hand. */
  mark(root: HTMLElement): void {
    if (!this.hint || !root.querySelector("#hint-box")) return;
    for (const card of cardsOf(this.hint.data.move as Move)) {
      root.querySelector(`#hand button.card[data-card='${card}']`)?.classList.add("hinted");
    }
  }

  private async ask(key: string): Promise<void> {
    this.asking = key;
    this.problem = "";
    this.render();
    const { data, error } = await api.POST("/v1/games/{game_id}/hints", { params: { path: { game_id: this.gameId } } });
    this.asking = null;
    if (data) {
      this.hint = { key, data };
      this.used = data.hints_used;
    } else {
      this.problem = problemText(error);
    }
    this.render();
  }
}
