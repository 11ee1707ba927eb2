// Challenging players by name (create_challenge): "Challenge <name>"
// buttons beside the names on a finished game's end screen, its replay and
// the lobby's leaderboard, and the one small form they open. The challenger
// sits at seat 0, those challenged at seats 1 on, so the table's size is
// 1 + the number challenged; a kind that cannot seat that many is offered
// disabled, with its range. Sent challenges, with Withdraw, are in the
// header list (inbox.ts), which also takes the challenger to the game.
import { api, me, problemText, type Game, type Kind, type Schemas } from "./api";
import { clear, h } from "./dom";
import { KIND_NAME } from "./words";

export interface Opponent {
  player_id: string;
  display_name: string;
}

/** How many players each kind seats (LH-3, CH-1). */
const SEATS: Record<Kind, [number, number]> = { "lost-heir": [2, 4], "cancellation-hearts": [6, 10] };

/** Time per move offered; the server's bot moves for a seat whose time runs out (the default policy). */
const CLOCKS: [string, string][] = [
  ["", "no clock"], ["60", "1 minute"], ["300", "5 minutes"], ["3600", "1 hour"], ["86400", "1 day"],
];

/** Tells the header list a challenge was sent, so it lists it without waiting for the stream. */
export const CHALLENGES_CHANGED = "cardgames:challenges";

/** The other people seated at a game: not me, not bots, not open seats. */
export function otherPlayers(g: Pick<Game, "seats">): Opponent[] {
  const mine = me()?.player_id;
  return g.seats.flatMap((s) => (s.occupant === "player" && s.player_id && s.player_id !== mine
    ? [{ player_id: s.player_id, display_name: s.display_name ?? "a player" }] : []));
}

const names = (who: Opponent[]) => who.map((o) => o.display_name).join(", ");

/**
 * One place on a page where the challenge form opens (`element`), and the
 * buttons that open it for given players (`button`). Opening it for others
 * replaces the form; Cancel or Escape closes it and gives focus back.
 */
export class ChallengeBox {
  readonly element: HTMLElement;
  private opener: HTMLElement | null = null;

  constructor(private readonly id: string, private readonly defaultKind: Kind) {
    this.element = h("div", { class: "challenge-box", id });
  }

  /** "Challenge Bob" (or `text`), which opens the form for `who`; nothing for nobody. */
  button(who: Opponent[], text?: string): HTMLElement | null {
    if (!who.length || !me()) return null;
    const b: HTMLButtonElement = h("button", { type: "button", class: "link challenge-open", "data-challenge-to": who.map((o) => o.player_id).join(","),
      "aria-controls": this.id, onclick: () => this.open(who, b) },
    text ?? `Challenge ${names(who)}`, text ? h("span", { class: "sr-only" }, ` (${names(who)})`) : null);
    return b;
  }

  close(): void {
    clear(this.element);
    this.opener?.focus();
    this.opener = null;
  }

  private open(who: Opponent[], opener: HTMLElement): void {
    this.opener = opener;
    clear(this.element, this.form(who));
    this.element.querySelector<HTMLElement>("select, input")?.focus();
  }

  private form(who: Opponent[]): HTMLElement {
    const p = `${this.id}-f`;
    const players = who.length + 1;
    const fits = (k: Kind) => players >= SEATS[k][0] && players <= SEATS[k][1];
    const kind = h("select", { id: `${p}-kind`, name: "kind" }, (Object.keys(SEATS) as Kind[]).map((k) =>
      h("option", { value: k, disabled: !fits(k), selected: k === this.defaultKind && fits(k) },
        fits(k) ? KIND_NAME[k] : `${KIND_NAME[k]} (needs ${SEATS[k][0]} to ${SEATS[k][1]} players)`)));
    const target = h("input", { id: `${p}-target`, name: "target", type: "number", min: 1, placeholder: "the game's default" });
    const rated = h("input", { id: `${p}-rated`, name: "rated", type: "checkbox", checked: true });
    const clock = h("select", { id: `${p}-clock`, name: "move_deadline_secs" }, CLOCKS.map(([v, t]) => h("option", { value: v }, t)));
    const send = h("button", { type: "submit", class: "primary", id: `${p}-send` }, "Send challenge");
    const error = h("p", { class: "error", id: `${p}-error`, role: "alert" });
    const possible = (Object.keys(SEATS) as Kind[]).some(fits);
    const form = h("form", { class: "card-panel challenge-form", id: p, "aria-labelledby": `${p}-title` },
      h("h2", { id: `${p}-title` }, `Challenge ${names(who)}`),
      h("p", { class: "muted small" }, `${players} players: you at seat 0, ${names(who)} after you. The game starts when ${who.length > 1 ? "everyone has" : "they have"} accepted.`),
      h("div", { class: "field" }, h("label", { for: kind.id }, "Game"), kind),
      h("div", { class: "field" }, h("label", { for: target.id }, "Play to (points)"), target),
      h("div", { class: "field" }, h("label", { for: clock.id }, "Time per move"), clock),
      h("div", { class: "field" }, h("label", {}, rated, " rated (counts for the leaderboard)")),
      possible ? null : h("p", { class: "error" }, `No game seats ${players} players.`),
      h("div", { class: "choices" }, send, h("button", { type: "button", id: `${p}-cancel`, onclick: () => this.close() }, "Cancel")),
      error);
    send.disabled = !possible;
    form.addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); this.close(); } });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      send.disabled = true;
      const body: Schemas["CreateChallengeRequest"] = {
        kind: kind.value as Kind,
        config: { players, ...(target.value ? { target: Number(target.value) } : {}) },
        challenged: who.map((o) => o.player_id),
        rated: rated.checked,
        move_deadline_secs: clock.value ? Number(clock.value) : null,
      };
      const { data, error: problem } = await api.POST("/v1/challenges", { body });
      send.disabled = false;
      if (!data) { error.textContent = problemText(problem); return; }
      window.dispatchEvent(new Event(CHALLENGES_CHANGED));
      clear(this.element, h("p", { class: "card-panel challenge-sent", id: `${p}-sent`, role: "status" },
        `Challenge sent to ${names(who)}: ${KIND_NAME[data.kind] ?? data.kind}, waiting for an answer. It is listed under "Your turn" at the top, where you can withdraw it; you will be taken to the table when it starts.`));
      this.opener?.focus();
    });
    return form;
  }
}
