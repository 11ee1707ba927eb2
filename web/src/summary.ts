// The moments between hands: a round's summary (who took what, the
// points, the contract made or failed), the score chart over the rounds,
// and the end of the game (the winners, the standings). Built from the
// view's score sheet; "who took what" also from the round's tricks, when
// the log seen reaches back to them (tricks.ts).
import type { Game, HeartsView, LostHeirView, Schemas } from "./api";
import { cityName } from "./cards";
import { h, type Children } from "./dom";
import { chip } from "./faces";
import type { DoneTrick } from "./tricks";
import { listNames, plural, seatName } from "./words";

type LHRow = Schemas["LostHeirRoundRecord"];
type CHRow = Schemas["CancellationHeartsScoreSheetRow"];

/** Distinct line colours (dark enough on white for the chart's 3:1). */
const COLOURS = ["#1e6fd9", "#c0262d", "#1f7a3a", "#7b3fa0", "#b35c00", "#00777a", "#a0307a", "#4d5b00", "#5a4632", "#333f99"];

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

export function sideNames(g: Game, v: LostHeirView, side: number): string {
  return listNames(v.sides[side]?.seats.map((s) => seatName(g, s)) ?? [`side ${side}`]);
}

function panel(id: string, title: string, body: Children[], onClose: (() => void) | null): HTMLElement {
  return h("div", { class: "summary", id, role: "region", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title),
    body,
    onClose ? h("button", { type: "button", class: "primary", id: `${id}-close`, "data-key": `${id}-close`, onclick: onClose }, "Continue") : null);
}

// ---------------------------------------------------------------- Lost Heir

/** What the contract came to, in words (LH-6, LH-11, LH-13). */
export function lhContractText(g: Game, v: LostHeirView, row: LHRow): { text: string; made: boolean | null } {
  const bids = row.calls.map((c, seat) => ({ c, seat })).filter((x) => x.c?.type === "bid");
  const top = bids.reduce<{ seat: number; points: number } | null>((best, x) => {
    const points = (x.c as { points: number }).points;
    return !best || points > best.points ? { seat: x.seat, points } : best;
  }, null);
  if (row.decision === "all_passed") return { text: "Everyone passed: no contract, every side scored what it took.", made: null };
  if (row.decision === "rejected") {
    return { text: `${seatName(g, row.dealer)} rejected ${top ? `${seatName(g, top.seat)}'s bid of ${top.points}` : "the bid"}: the dealer's side scores nothing positive this round.`, made: null };
  }
  const c = row.contract;
  if (!c) return { text: "", made: null };
  const took = row.points[c.side] ?? 0;
  const made = took >= c.points;
  const who = sideNames(g, v, c.side);
  return {
    text: `Contract: ${who} had to take ${c.points} points and took ${took}: ${made ? "made." : "failed, so nothing positive scores."}`,
    made,
  };
}

/** The Lost Heir and the Wrong Boy: who took them, and whether a Blank stopped them counting (LH-11). */
function lhBonuses(g: Game, v: LostHeirView, tricks: DoneTrick[] | null): string[] {
  if (!tricks) return [];
  const out: string[] = [];
  for (const t of tricks) {
    const cards = t.plays.map((p) => p.card);
    const blank = cards.includes("blank");
    const side = v.sides.findIndex((s) => t.winner !== null && s.seats.includes(t.winner));
    const who = side >= 0 ? sideNames(g, v, side) : "?";
    if (cards.includes("heir")) out.push(`${who} took the Lost Heir${blank ? ", with a Blank in the trick: it counts nothing" : " (+5)"}.`);
    if (cards.includes("wrong-boy")) out.push(`${who} took the Wrong Boy${blank ? ", with a Blank in the trick: it counts nothing" : " (−3)"}.`);
  }
  return out;
}

export function lhRoundSummary(g: Game, v: LostHeirView, index: number, tricks: DoneTrick[] | null, onClose: (() => void) | null): HTMLElement {
  const row = v.score_sheet[index]!;
  const contract = lhContractText(g, v, row);
  const table = h("table", { class: "summary-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, v.partnerships ? "Side" : "Player"), h("th", { scope: "col" }, "Tricks"),
      h("th", { scope: "col" }, "Points taken"), h("th", { scope: "col" }, "Scored"), h("th", { scope: "col" }, "Total"))),
    h("tbody", {}, v.sides.map((_, i) => h("tr", { "data-side": i },
      h("th", { scope: "row" }, sideNames(g, v, i)),
      h("td", {}, String(row.tricks[i] ?? 0)),
      h("td", {}, String(row.points[i] ?? 0)),
      h("td", {}, signed(row.round_scores[i] ?? 0)),
      h("td", {}, String(row.totals[i] ?? 0))))));
  return panel("round-summary", `Round ${row.round} is over · ${cityName(row.trumps)} were trumps`, [
    contract.text ? h("p", { class: contract.made === false ? "failed" : contract.made ? "made" : "", id: "summary-contract" }, contract.text) : null,
    table,
    lhBonuses(g, v, tricks).map((line) => h("p", { class: "muted" }, line)),
  ], onClose);
}

// ---------------------------------------------------------------- Cancellation Hearts

/** The scoring cards (hearts, queens of spades) each seat took in tricks. */
function scoringCardsTaken(n: number, tricks: DoneTrick[]): string[][] {
  const taken: string[][] = Array.from({ length: n }, () => []);
  let pending: string[] = [];
  for (const t of tricks) {
    const scoring = t.plays.map((p) => p.card).filter((c) => c.endsWith("H") || c === "QS");
    if (t.winner === null) { pending = [...pending, ...scoring]; continue; }
    taken[t.winner]!.push(...pending, ...scoring);
    pending = [];
  }
  return taken;
}

export function chRoundSummary(g: Game, v: HeartsView, index: number, tricks: DoneTrick[] | null, onClose: (() => void) | null): HTMLElement {
  const row = v.score_sheet[index]!;
  const n = v.config.players;
  const taken = tricks ? scoringCardsTaken(n, tricks) : null;
  const moon = row.moon
    ? `${seatName(g, row.moon.shooter)} shot the moon (took every heart and both queens of spades) and ${row.moon.choice === "subtract_own" ? "took 26 off their own score" : "added 26 to everyone else's"}.`
    : null;
  const hidden = taken?.some((cards, s) => !row.moon && points(cards) !== (row.points[s] ?? 0));
  const table = h("table", { class: "summary-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), taken ? h("th", { scope: "col" }, "Took") : null,
      h("th", { scope: "col" }, "Points"), h("th", { scope: "col" }, "Total"))),
    h("tbody", {}, [...Array(n).keys()].map((s) => h("tr", { "data-seat": s },
      h("th", { scope: "row" }, seatName(g, s)),
      taken ? h("td", { class: "took" }, takenCell(taken[s] ?? [])) : null,
      h("td", {}, signed(row.points[s] ?? 0)),
      h("td", {}, String(row.scores[s] ?? 0))))));
  return panel("round-summary", `Round ${row.round + 1} is over`, [
    moon ? h("p", { class: "made", id: "summary-moon" }, moon) : null,
    table,
    hidden ? h("p", { class: "muted" }, "Points also count the kitty's discards, which only their owner saw (CH-10).") : null,
  ], onClose);
}

function points(cards: string[]): number {
  return cards.reduce((sum, c) => sum + (c === "QS" ? 13 : c.endsWith("H") ? 1 : 0), 0);
}

/** "Q♠ and 5 hearts" with the queens as pictures. */
function takenCell(cards: string[]): Children[] {
  const queens = cards.filter((c) => c === "QS");
  const hearts = cards.length - queens.length;
  if (!cards.length) return ["nothing"];
  return [queens.map((c) => chip(c, "tiny")), hearts ? ` ${plural(hearts, "heart")}` : null];
}

// ---------------------------------------------------------------- the chart and the end

const SVG = "http://www.w3.org/2000/svg";
function svg(tag: string, attrs: Record<string, string | number>, ...children: (SVGElement | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

export interface Series {
  name: string;
  /** The total after each round (round 1 first). */
  totals: number[];
}

/**
 * Totals over the rounds, one line per player or side, the target as a
 * dashed line. Drawn as SVG elements (presentation attributes, never a
 * style attribute: the page's CSP). The score table beside it carries the
 * same numbers for a screen reader.
 */
export function scoreChart(series: Series[], target: number, lowWins: boolean): HTMLElement {
  const rounds = Math.max(0, ...series.map((s) => s.totals.length));
  const W = 360, H = 170, L = 34, R = 10, T = 10, B = 22;
  const totals = series.flatMap((s) => s.totals);
  // The target line only when the scores come near it, so that far from it they still spread out.
  const showTarget = Math.max(0, ...totals) >= target / 2;
  const values = [0, ...(showTarget ? [target] : []), ...totals];
  const lo = Math.min(...values), hi = Math.max(1, ...values);
  const x = (i: number) => L + (rounds <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (rounds - 1));
  const y = (v: number) => T + ((hi - v) * (H - T - B)) / (hi - lo || 1);
  const parts: SVGElement[] = [
    svg("title", {}, `Scores after each round; the game ends at ${target}, ${lowWins ? "lowest" : "highest"} wins`),
    svg("line", { x1: L, x2: W - R, y1: y(0), y2: y(0), stroke: "#999", "stroke-width": 1 }),
    svg("text", { x: L - 4, y: y(0) + 4, "text-anchor": "end", "font-size": 10, fill: "#333" }, "0"),
  ];
  if (showTarget) {
    parts.push(svg("line", { x1: L, x2: W - R, y1: y(target), y2: y(target), stroke: "#b3261e", "stroke-width": 1, "stroke-dasharray": "4 3" }),
      svg("text", { x: L - 4, y: y(target) + 4, "text-anchor": "end", "font-size": 10, fill: "#8a1c15" }, String(target)));
  } else {
    const top = Math.max(...totals);
    parts.push(svg("text", { x: L - 4, y: y(top) + 4, "text-anchor": "end", "font-size": 10, fill: "#333" }, String(top)));
  }
  for (let i = 0; i < rounds; i++) parts.push(svg("text", { x: x(i), y: H - 6, "text-anchor": "middle", "font-size": 10, fill: "#333" }, String(i + 1)));
  series.forEach((s, k) => {
    const colour = COLOURS[k % COLOURS.length]!;
    if (s.totals.length > 1) {
      parts.push(svg("polyline", { points: s.totals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), fill: "none", stroke: colour, "stroke-width": 2 }));
    }
    s.totals.forEach((v, i) => parts.push(svg("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3, fill: colour })));
  });
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart-svg", role: "img", "aria-label": `Score chart over ${plural(rounds, "round")}` }, ...parts);
  const legend = h("ul", { class: "chart-legend" }, series.map((s, k) => h("li", {},
    svg("svg", { viewBox: "0 0 12 12", width: 12, height: 12, "aria-hidden": "true" }, svg("rect", { width: 12, height: 12, rx: 2, fill: COLOURS[k % COLOURS.length]! })),
    ` ${s.name}: ${s.totals[s.totals.length - 1] ?? 0}`)));
  return h("figure", { class: "chart", id: "score-chart" }, chart,
    h("figcaption", {}, `Totals after each round (the game ends at ${target}; ${lowWins ? "lowest" : "highest"} wins)`), legend);
}

export function lhSeries(g: Game, v: LostHeirView): Series[] {
  return v.sides.map((_, i) => ({ name: sideNames(g, v, i), totals: v.score_sheet.map((r) => r.totals[i] ?? 0) }));
}

export function chSeries(g: Game, v: HeartsView): Series[] {
  return [...Array(v.config.players).keys()].map((s) => ({ name: seatName(g, s), totals: v.score_sheet.map((r) => r.scores[s] ?? 0) }));
}

/**
 * The end of the game: who won, everyone's final place and score, the
 * chart; `extra` holds the rematch and replay controls; `beside(seats)`
 * what follows a standing's name (the Challenge buttons), `after` what
 * follows the standings (the challenge form).
 */
export function endScreen(g: Game, standings: { name: string; score: number; seats: number[] }[], lowWins: boolean, chart: HTMLElement | null, extra: Children[],
  beside: (seats: number[]) => Children = () => null, after: Children = null): HTMLElement {
  const o = g.outcome;
  const winners = new Set(o?.winners ?? []);
  const forfeited = new Set(o?.forfeited ?? []);
  const ranked = [...standings].sort((a, b) => (lowWins ? a.score - b.score : b.score - a.score));
  const won = ranked.filter((s) => s.seats.some((seat) => winners.has(seat)));
  const mine = g.your_seat;
  const iWon = mine !== null && mine !== undefined && winners.has(mine);
  const others = [...winners].filter((s) => s !== mine).map((s) => seatName(g, s));
  const headline = !won.length ? "The game is over."
    : iWon ? (others.length ? `You win, with ${listNames(others)}!` : "You win!")
    : `${listNames(won.map((w) => w.name))} ${won.length > 1 || won[0]!.seats.length > 1 ? "win" : "wins"}.`;
  return h("div", { class: `summary end${iWon ? " won" : ""}`, id: "end-screen", role: "region", "aria-labelledby": "end-title" },
    h("h2", { id: "end-title" }, "Game over"),
    h("p", { class: "headline", id: "end-headline" }, headline),
    h("ol", { class: "standings", id: "standings" }, ranked.map((s) => h("li", { class: s.seats.some((x) => winners.has(x)) ? "winner" : "" },
      h("span", { class: "who" }, s.name), " ", h("span", { class: "score" }, plural(s.score, "point")),
      s.seats.some((x) => forfeited.has(x)) ? h("span", { class: "muted" }, " (forfeited)") : null, beside(s.seats)))),
    after,
    chart,
    h("div", { class: "end-actions" }, extra));
}
