// The post-game analysis in the replay (docs/analysis.md, issue 35 point 4):
// an "Analyse" action (request_analysis), its progress (get_analysis, polled
// with a growing pause), then per decision a mark (good, inaccuracy,
// mistake; forced and unjudged decisions stay unmarked), a strip of every
// decision of a seat to jump along, the seats' summary, and at a decision
// the move played against the expert's on the cards of the hand with the
// expected value of each.
//
// A decision is shown at the table *before* its move (the event just
// before it in the log): the hand still holds both the card played and the
// card the expert prefers.
import { api, problemText, token, type Game, type Move, type Schemas } from "./api";
import { clear, h } from "./dom";
import { face, sorted } from "./cards";
import { chip } from "./faces";
import { moveText, seatName } from "./words";

type Resource = Schemas["AnalysisResource"];
type Decision = Schemas["DecisionReport"];
type SeatReport = Schemas["SeatReport"];
type Thresholds = Schemas["MarkThresholds"];

/** What the replay lends the panel: a jump to an event, and its move list to annotate. */
export interface ReplayHost {
  /** Shows the table just after event `seq` (0: before the first). */
  jump(seq: number): void;
  /** The event seq of each move, by ply (for a decision without its own seq). */
  moveSeqs: readonly number[];
  /** The replay's event menu: a decided move's option gets its mark. */
  menu: HTMLSelectElement;
}

/** The budgets offered: the engine's own (the expert bot's), or a quick look at a fraction of it. */
const QUICK_PLAYOUTS = 60;
const POLL_FIRST_MS = 1000;
const POLL_MAX_MS = 8000;
const JUDGED = new Set(["good", "inaccuracy", "mistake"]);
/** The symbols chess players know, next to the words. */
const SYMBOL: Record<string, string> = { good: "✓", inaccuracy: "?!", mistake: "?" };

/** "+1.2", "−0.8": the sign always shown (a value is a margin over the others). */
export function signed(value: number): string {
  const text = Math.abs(value).toFixed(1);
  return value < 0 && text !== "0.0" ? `−${text}` : `+${text}`;
}

/** The cards a move names (a card played, three passed), to find on the hand. */
export function cardsOf(move: Move): string[] {
  const m = move as { type: string; card?: string; cards?: string[] };
  if (m.type === "play" && m.card) return [m.card];
  return Array.isArray(m.cards) ? m.cards : [];
}

/** A move in few words: "7♥", "bid 6", "pass". */
export function shortMove(move: Move): string {
  const cards = cardsOf(move);
  if (cards.length) return cards.map((c) => face(c).short).join(" ");
  const text = moveText(move);
  return text.replace(/^bids /, "bid ").replace(/^passes$/, "pass").replace(/^names /, "name ");
}

function sameMove(a: Move, b: Move): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Every hand at a moment of the replay, from its (omniscient) view. */
function handsOf(view: unknown): readonly (readonly string[])[] {
  const v = view as { hands?: string[][]; secrets?: { hands?: string[][] } | null };
  return v.hands ?? v.secrets?.hands ?? [];
}

export class AnalysisPanel {
  readonly element: HTMLElement;
  /** The strip, the summary and the decision at the board, once done. */
  private readonly body: HTMLElement;
  private readonly detail: HTMLElement;
  private closed = false;
  private timer: number | undefined;
  private analysis: Schemas["GameAnalysis"] | null = null;
  /** The decisions by the seq of the table they were made at (the event before the move). */
  private readonly atPosition = new Map<number, Decision & { seat: number }>();
  private seat: number;
  /** The table the replay shows: the seq and its view. */
  private shown: { seq: number; view: unknown } | null = null;

  constructor(private readonly game: Game, private readonly host: ReplayHost) {
    this.seat = game.your_seat ?? 0;
    this.body = h("div", { id: "analysis-body" }, h("p", { class: "muted" }, "Looking for an analysis…"));
    this.detail = h("div", { id: "decision", class: "decision", "aria-live": "polite" });
    this.element = h("section", { class: "card-panel analysis", id: "analysis", "aria-labelledby": "analysis-title" },
      h("h2", { id: "analysis-title" }, "Analysis"), this.body);
  }

  /** The decision panel goes by the board (placed by the replay). */
  get decisionElement(): HTMLElement {
    return this.detail;
  }

  /** Reads the analysis asked for before (this budget, or the engine's); offers to ask when there is none. */
  async start(): Promise<void> {
    const remembered = Number(sessionStorage.getItem(this.memoryKey())) || undefined;
    // The budget asked for here before, else the standard one, else the quick one (someone else's).
    const budgets = [...new Set([remembered, undefined, QUICK_PLAYOUTS])];
    for (const playouts of budgets) {
      const { data, error, response } = await api.GET("/v1/games/{game_id}/analysis", { params: { path: { game_id: this.game.id }, query: { playouts } } });
      if (this.closed) return;
      if (data) { this.follow(data); return; }
      if (response.status !== 404) { clear(this.body, h("p", { class: "error" }, problemText(error))); return; }
    }
    this.offer();
  }

  close(): void {
    this.closed = true;
    window.clearTimeout(this.timer);
  }

  private memoryKey(): string {
    return `cardgames.analysis.${this.game.id}`;
  }

  /** The Analyse action: any signed-in player may ask (a finished game's record is public, G-2). */
  private offer(problem?: string): void {
    if (!token()) {
      clear(this.body, h("p", { class: "muted" }, "Sign in to ask the expert bot to analyse this game."));
      return;
    }
    const depth = h("select", { id: "analysis-depth", "aria-label": "how hard the expert looks" },
      h("option", { value: "" }, "standard: the expert bot's own search"),
      h("option", { value: String(QUICK_PLAYOUTS) }, `quick: ${QUICK_PLAYOUTS} playouts a decision (rougher)`));
    const go = h("button", { type: "button", id: "analyse", class: "primary" }, "Analyse");
    go.addEventListener("click", () => { go.disabled = true; void this.request(depth.value ? Number(depth.value) : undefined); });
    clear(this.body,
      h("p", {}, "The expert bot replays every decision of every seat from that seat's view only, and says where a better move was: ",
        "good, inaccuracy or mistake, by how much the move played gave away."),
      h("div", { class: "analysis-ask" }, go, h("label", { class: "small" }, "Depth ", depth)),
      h("p", { class: "error", id: "analysis-error", role: "alert" }, problem ?? ""));
  }

  private async request(playouts: number | undefined): Promise<void> {
    const { data, error } = await api.POST("/v1/games/{game_id}/analysis", { params: { path: { game_id: this.game.id } }, body: { playouts } });
    if (this.closed) return;
    if (!data) { this.offer(problemText(error)); return; }
    sessionStorage.setItem(this.memoryKey(), String(data.playouts));
    this.follow(data);
  }

  /** Shows where the analysis is; polls (each pause half as long again, up to 8 s) until done or failed. */
  private follow(resource: Resource, pause = POLL_FIRST_MS): void {
    if (resource.status === "done" && resource.analysis) { this.show(resource.analysis); return; }
    if (resource.status === "failed") {
      this.offer(`The analysis failed: ${resource.error ?? "no reason given"}. Asking again starts it again.`);
      return;
    }
    const since = Math.max(0, Math.round((Date.now() - Date.parse(resource.requested_at)) / 1000));
    clear(this.body, h("p", { id: "analysis-status", "data-status": resource.status },
      h("progress", { "aria-label": "analysis in progress" }), " ",
      resource.status === "queued" ? "Waiting for a free thinker (the bots share them fairly)…" : "The expert is going through the game…",
      h("span", { class: "muted" }, ` ${since} s, ${resource.playouts} playouts a decision`)));
    this.timer = window.setTimeout(() => void this.poll(resource.playouts, Math.min(POLL_MAX_MS, pause * 1.5)), pause);
  }

  private async poll(playouts: number, pause: number): Promise<void> {
    const { data, error } = await api.GET("/v1/games/{game_id}/analysis", { params: { path: { game_id: this.game.id }, query: { playouts } } });
    if (this.closed) return;
    if (data) { this.follow(data, pause); return; }
    // A server restarting: keep asking, as slowly as allowed.
    clear(this.body, h("p", { class: "error" }, problemText(error)));
    this.timer = window.setTimeout(() => void this.poll(playouts, POLL_MAX_MS), POLL_MAX_MS);
  }

  private show(analysis: Schemas["GameAnalysis"]): void {
    this.analysis = analysis;
    this.atPosition.clear();
    for (const report of analysis.seats) {
      for (const d of report.decisions) this.atPosition.set(this.positionOf(d), { ...d, seat: report.seat });
    }
    if (!analysis.seats.some((r) => r.seat === this.seat)) this.seat = analysis.seats[0]?.seat ?? 0;
    this.annotateMenu(analysis);
    this.renderBody();
    if (this.shown) this.onShow(this.shown.seq, this.shown.view);
  }

  /** The table a decision was made at: the event just before its move. */
  private positionOf(d: Decision): number {
    const seq = d.seq ?? this.host.moveSeqs[d.ply] ?? 1;
    return seq - 1;
  }

  /** The replay's event menu says each decided move's mark: "Ann plays 7♥ · mistake (−2.4)". */
  private annotateMenu(analysis: Schemas["GameAnalysis"]): void {
    for (const report of analysis.seats) {
      for (const d of report.decisions) {
        if (!JUDGED.has(d.mark)) continue;
        const option = this.host.menu.querySelector<HTMLOptionElement>(`option[value='${this.positionOf(d) + 1}']`);
        if (!option || option.dataset.mark) continue;
        option.dataset.mark = d.mark;
        option.textContent += d.mark === "good" ? " · good" : ` · ${d.mark} ${SYMBOL[d.mark]} (−${d.loss.toFixed(1)})`;
      }
    }
  }

  private renderBody(): void {
    const analysis = this.analysis;
    if (!analysis) return;
    const report = analysis.seats.find((r) => r.seat === this.seat);
    const seatSelect = h("select", { id: "analysis-seat", "aria-label": "whose decisions" },
      analysis.seats.map((r) => h("option", { value: String(r.seat), selected: r.seat === this.seat }, this.who(r.seat))));
    seatSelect.addEventListener("change", () => { this.seat = Number(seatSelect.value); this.renderBody(); });
    clear(this.body,
      this.summaryTable(analysis),
      h("div", { class: "analysis-seat" }, h("label", {}, "Decisions of ", seatSelect), report ? this.jumps(report) : null),
      report ? this.strip(report) : null,
      h("details", { class: "muted small", id: "value-meaning" },
        h("summary", {}, "Values are expected points ahead of the others at the round's end; what the marks mean"),
        h("p", {}, valueMeaning(this.game, analysis.thresholds, analysis.playouts))));
  }

  private who(seat: number): string {
    return `${seatName(this.game, seat)}${this.game.your_seat === seat ? " (you)" : ""}`;
  }

  /** Per seat: accuracy, the marks counted, the mean loss, and the costliest decisions as links. */
  private summaryTable(analysis: Schemas["GameAnalysis"]): HTMLElement {
    const byPly = (r: SeatReport, ply: number) => r.decisions.find((d) => d.ply === ply);
    return h("div", { class: "table-scroll" }, h("table", { class: "analysis-summary", id: "analysis-summary" },
      h("caption", { class: "sr-only" }, "Each seat's decisions summed up"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Accuracy"),
        h("th", { scope: "col" }, "Marks"), h("th", { scope: "col" }, "Avg. loss"), h("th", { scope: "col" }, "Costliest"))),
      h("tbody", {}, analysis.seats.map((r) => h("tr", { "data-seat": r.seat, class: r.seat === this.game.your_seat ? "mine" : "" },
        h("th", { scope: "row" }, this.who(r.seat)),
        h("td", { "data-label": "Accuracy" }, `${r.summary.accuracy.toFixed(0)} %`),
        h("td", { "data-label": "Marks", title: `${r.summary.judged} judged, ${r.summary.forced} forced, ${r.summary.unjudged} too wide to judge` },
          `${r.summary.good} good · ${r.summary.inaccuracies} ?! · ${r.summary.mistakes} ?`),
        h("td", { "data-label": "Avg. loss" }, r.summary.mean_loss.toFixed(2)),
        h("td", { class: "costliest", "data-label": "Costliest" }, r.summary.costliest.length
          ? r.summary.costliest.map((ply) => {
            const d = byPly(r, ply);
            return d ? h("button", { type: "button", class: `link mark-link mark-${d.mark}`, "data-ply": ply, onclick: () => this.goTo(r.seat, d) },
              `${shortMove(d.played)} (−${d.loss.toFixed(1)})`) : null;
          })
          : h("span", { class: "muted" }, "none")))))));
  }

  /** Previous / next inaccuracy or mistake of the seat, from the table shown. */
  private jumps(report: SeatReport): HTMLElement {
    const bad = report.decisions.filter((d) => d.mark === "inaccuracy" || d.mark === "mistake");
    const here = this.shown?.seq ?? 0;
    const before = [...bad].reverse().find((d) => this.positionOf(d) < here);
    const after = bad.find((d) => this.positionOf(d) > here);
    const button = (id: string, text: string, d: Decision | undefined) =>
      h("button", { type: "button", id, disabled: !d, onclick: () => d && this.goTo(report.seat, d) }, text);
    return h("span", { class: "analysis-jumps" },
      button("prev-mistake", "◀ previous ?!/?", before), button("next-mistake", "next ?!/? ▶", after),
      h("span", { class: "muted small" }, bad.length ? `${bad.length} to look at` : "nothing to look at: every judged move was good"));
  }

  /** Every decision of the seat in order, a square each: coloured and marked when judged, plain when forced or too wide. */
  private strip(report: SeatReport): HTMLElement {
    return h("ol", { class: "mark-strip", id: "mark-strip", "aria-label": `${this.who(report.seat)}'s decisions, in order` },
      report.decisions.map((d) => {
        const judged = JUDGED.has(d.mark);
        const text = `move ${d.ply + 1}, round ${d.round}: ${shortMove(d.played)}, ${judged ? `${d.mark}${d.mark === "good" ? "" : `, gave away ${d.loss.toFixed(1)}`}` : d.mark === "forced" ? "forced (one legal move)" : "not judged (too many choices)"}`;
        return h("li", {}, h("button", {
          type: "button", class: `mark-dot mark-${d.mark}`, "data-mark": d.mark, "data-ply": d.ply, "data-move": d.played.type, "data-seq": this.positionOf(d),
          title: text, "aria-label": text, tabindex: judged && d.mark !== "good" ? null : "-1", onclick: () => this.goTo(report.seat, d),
        }, judged ? SYMBOL[d.mark] : ""));
      }));
  }

  private goTo(seat: number, d: Decision): void {
    if (seat !== this.seat) { this.seat = seat; this.renderBody(); }
    this.host.jump(this.positionOf(d));
  }

  /** Called by the replay after each table it shows: the decision about to be made there, if any. */
  onShow(seq: number, view: unknown): void {
    this.shown = { seq, view };
    if (!this.analysis) return;
    for (const el of this.element.querySelectorAll(".mark-dot.current")) el.classList.remove("current");
    this.element.querySelector(`.mark-dot[data-seq='${seq}']`)?.classList.add("current");
    const report = this.analysis.seats.find((r) => r.seat === this.seat);
    const jumps = this.element.querySelector(".analysis-jumps");
    if (report && jumps) jumps.replaceWith(this.jumps(report));
    const d = this.atPosition.get(seq);
    if (!d) { clear(this.detail); this.detail.removeAttribute("data-mark"); return; }
    this.detail.dataset.mark = d.mark;
    this.detail.dataset.seat = String(d.seat);
    clear(this.detail, this.decisionView(d, handsOf(view)[d.seat] ?? []));
    highlightBoard(d, seq);
  }

  /** The decision: its mark, both moves on the seat's hand, their expected values, every candidate. */
  private decisionView(d: Decision & { seat: number }, hand: readonly string[]): HTMLElement {
    const judged = JUDGED.has(d.mark);
    const same = sameMove(d.played, d.best);
    const played = cardsOf(d.played);
    const best = cardsOf(d.best);
    const verdict = d.mark === "forced" ? "forced: the only legal move, not judged"
      : d.mark === "unjudged" ? `not judged: ${d.choices} choices, too many to search`
        : d.mark === "good" ? (same ? "good: the expert's choice too" : `good: within ${this.analysis?.thresholds.inaccuracy ?? "?"} of the expert's`)
          : `${d.mark}: gave away ${d.loss.toFixed(1)}`;
    const handRow = hand.length && (played.length || best.length)
      ? h("div", { class: "decision-hand", "aria-label": `${this.who(d.seat)}'s hand` }, sorted(hand as string[]).map((c) => {
        const isBest = judged && !same && best.includes(c);
        const isPlayed = played.includes(c);
        const el = chip(c, `${isBest ? "better-move" : ""} ${isPlayed ? (same || !judged ? "played-move same" : "played-move") : ""}`.trim());
        if (isBest) el.append(h("span", { class: "tag" }, "expert"));
        else if (isPlayed) el.append(h("span", { class: "tag" }, "played"));
        return el;
      }))
      : null;
    const valueRow = (label: string, move: Move, value: number | null | undefined, cls: string) =>
      h("tr", { class: cls }, h("th", { scope: "row" }, label), h("td", {}, shortMove(move)), h("td", { class: "num" }, value === null || value === undefined ? "—" : signed(value)));
    const candidates = [...d.candidates].sort((a, b) => b.value - a.value);
    return h("div", {},
      h("h3", {}, h("span", { class: `mark-badge mark-${d.mark}` }, judged ? `${SYMBOL[d.mark]} ${d.mark}` : d.mark),
        ` ${this.who(d.seat)}, move ${d.ply + 1} (round ${d.round})`),
      h("p", { class: "verdict" }, `${this.who(d.seat)} ${moveText(d.played)}: ${verdict}.`),
      handRow,
      judged ? h("table", { class: "decision-values" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, h("span", { class: "sr-only" }, "whose")), h("th", { scope: "col" }, "move"), h("th", { scope: "col" }, "expected standing"))),
        h("tbody", {}, valueRow("Played", d.played, d.played_value, "played"), same ? null : valueRow("Expert", d.best, d.best_value, "best"))) : null,
      candidates.length > 2 ? h("details", { class: "candidates" }, h("summary", {}, `Every option (${candidates.length})`),
        h("ol", {}, candidates.map((c) => h("li", { class: sameMove(c.move, d.played) ? "played" : sameMove(c.move, d.best) ? "best" : "" },
          `${shortMove(c.move)} ${signed(c.value)}`)))) : null);
  }
}

/** Outlines the better card (and dims the one played) in the board's "Every hand" line of the seat. */
function highlightBoard(d: Decision & { seat: number }, seq: number): void {
  const board = document.querySelector(`#replay-board[data-seq='${seq}']`);
  const line = board?.querySelectorAll("#every-hand .hand-line")[d.seat];
  if (!line || !JUDGED.has(d.mark) || sameMove(d.played, d.best)) return;
  for (const c of cardsOf(d.best)) line.querySelector(`.card[data-card='${c}']`)?.classList.add("better-move");
  for (const c of cardsOf(d.played)) line.querySelector(`.card[data-card='${c}']`)?.classList.add("played-move");
}

/** What a value is (the analysis's own words, docs/analysis.md), and where the marks start. */
function valueMeaning(game: Game, t: Thresholds, playouts: number): string {
  const fewer = game.kind === "cancellation-hearts" ? " (counted so that fewer points is better, as in the game)" : "";
  return `A value is the expected standing at the end of the round: points ahead of (+) or behind (−) the mean of the others${fewer}, ` +
    `plus the win bonus when the round ends the game; an expected score margin, not a chance of winning. ` +
    `A move's loss is the expert move's value less its own: from ${t.inaccuracy} an inaccuracy (?!), from ${t.mistake} a mistake (?). ` +
    `Forced moves are not judged. ${playouts} playouts a decision, from the seat's view only.`;
}
