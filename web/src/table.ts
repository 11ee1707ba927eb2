// The table: exactly the seat's view (get_game's view and get_legal_moves),
// followed live through the game stream (stream_game with a stream ticket,
// resumed with Last-Event-ID by EventSource or `after=` on a new ticket).
// Each `state` frame re-reads the view; nothing polls.
//
// Moments are noticed here, by comparing each view with the one before: a
// completed trick held then gathered to its winner, the pass and the kitty
// crossing the felt, cards cancelling, a round's summary, the end of the
// game, my turn (notice.ts). Motion is skipped when the reader asks for
// less (prefers-reduced-motion); what it shows stays in words.
import {
  api, me, problemText, UNREACHABLE, publicApi, streamTicket, token,
  type EventResource, type Game, type HeartsView, type Kind, type LegalMoves, type LostHeirView, type Move, type Schemas,
} from "./api";
import { face } from "./cards";
import { ChallengeBox, otherPlayers } from "./challenge";
import { chat } from "./chat";
import { HintBox } from "./hint";
import { clear, countdown, h, patchChildren } from "./dom";
import { inviteBox } from "./invite";
import { notice } from "./notice";
import { resignControls, seriesPanel } from "./series";
import { chRoundSummary, chSeries, endScreen, lhRoundSummary, lhSeries, scoreChart, sideNames } from "./summary";
import { cardsPerHand, groupTricks, sameTrick, splitRounds, type DoneTrick, type Play, type Rules } from "./tricks";
import { passTarget, views, type Flight, type Hold } from "./views";
import { eventText, KIND_NAME, seatName } from "./words";

export { chip } from "./faces";
export { eventText, seatName } from "./words";

const HOLD_MS = 1500;
const GATHER_MS = 450;
const FLIGHT_MS = 800;
const FRESH_MS = 3000;
const FLASH_MS = 2200;
/** The least time a round's summary stays up by itself. */
const SUMMARY_MS = 8000;
/** Events read back when the page opens: enough for this round and the one before (a 10-seat round is ~130). */
const BACKLOG = 400;

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

export function table(main: HTMLElement, id: string): () => void {
  let game: Game | null = null;
  let legal: LegalMoves | null = null;
  let es: EventSource | null = null;
  let lastSeq = "";
  let closed = false;
  let refreshing = false;
  let dirty = false;
  let error = "";
  /** The end screen's challenge form, kept across renders so an open form keeps what was typed. */
  let challenges: ChallengeBox | null = null;
  const selected = new Set<string>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (ms: number, run: () => void) => {
    const t = setTimeout(() => { timers.delete(t); if (!closed) run(); }, ms);
    timers.add(t);
  };

  // ---------------------------------------------------------------- moments
  // A trick that just completed stays on the felt a moment (HOLD_MS), then
  // slides to its winner (GATHER_MS; no motion when the reader asks for less).
  let hold: Hold | null = null;
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  let lastTrickKey: string | null = null;
  let lastOpen = false;
  let flight: Flight | null = null;
  let fresh = new Set<string>();
  let flash: { cards: Set<string>; note: string } | null = null;
  /**
   * The round summary on the felt: the score sheet's row, shown from `from`
   * (after the round's last trick has been seen) until closed: Continue, my
   * next move, or the next round under way for a while.
   */
  let summary: { index: number; manual: boolean; from: number } | null = null;
  const tricksOpen = { open: false };
  const cursor = { index: 0 };
  const why = { text: "" };

  const noticeTrick = (g: Game) => {
    const last = (g.view as { last_trick?: { plays: Hold["plays"]; winner?: number | null } | null }).last_trick ?? null;
    const key = last ? JSON.stringify(last) : "";
    const first = lastTrickKey === null;
    if (key === lastTrickKey) return;
    lastTrickKey = key;
    if (first || !last) return;
    clearTimeout(holdTimer);
    hold = { plays: last.plays, winner: last.winner ?? null, gathering: false };
    lastOpen = false;
    holdTimer = setTimeout(() => {
      if (!hold || closed) return;
      if (reducedMotion() || hold.winner === null) { hold = null; render(); return; }
      hold.gathering = true;
      render();
      holdTimer = setTimeout(() => { hold = null; if (!closed) render(); }, GATHER_MS);
    }, HOLD_MS);
  };

  /**
   * A round just ended: its last trick is held a moment (Cancellation
   * Hearts' view forgets it with the new deal; the log has it), then the
   * summary comes up.
   */
  function roundOver(g: Game): void {
    tricksOpen.open = false;
    const index = ((g.view as { score_sheet: unknown[] }).score_sheet.length) - 1;
    // (Lost Heir's view keeps the round's last trick: noticeTrick holds it; so does a finished game's.)
    if (g.kind === "cancellation-hearts" && g.status !== "finished") {
      const final = tricksOfRound(g, index)?.at(-1);
      if (final) {
        clearTimeout(holdTimer);
        hold = { plays: final.plays, winner: final.winner, gathering: false };
        holdTimer = setTimeout(() => { hold = null; if (!closed) render(); }, HOLD_MS);
      }
    }
    const delay = hold ? HOLD_MS : 0;
    summary = { index, manual: false, from: Date.now() + delay };
    if (delay) later(delay, render);
  }

  /** Face-down cards crossing the felt: drawn where they start, moved on the next frame, gone after FLIGHT_MS. */
  const fly = (moves: Flight["moves"], count: number, what: string) => {
    if (reducedMotion() || !moves.length) return;
    flight = { moves, count, moving: false, what };
    requestAnimationFrame(() => requestAnimationFrame(() => {
      if (!flight || closed) return;
      flight.moving = true;
      render();
    }));
    later(FLIGHT_MS, () => { flight = null; render(); });
  };

  /** What changed between two views that deserves a moment. */
  function noticeMoments(before: Game | null, g: Game): void {
    noticeTrick(g);
    const was = before?.view as Record<string, unknown> | undefined;
    const now = g.view as Record<string, unknown>;
    if (!before || !was || Object.keys(was).length === 0 || Object.keys(now).length === 0) return;
    const sheet = (v: Record<string, unknown>) => (v.score_sheet as unknown[] | undefined)?.length ?? 0;
    if (sheet(now) > sheet(was)) roundOver(g);
    if (g.kind !== "cancellation-hearts") return;
    const a = was as unknown as HeartsView, b = now as unknown as HeartsView;
    const n = b.config.players;
    if (a.phase.name === "passing" && b.phase.name !== "passing" && a.round === b.round && b.pass_direction !== "none") {
      const moves = [...Array(n).keys()].map((s) => [s, passTarget(s, n, b.pass_direction) ?? s] as [number, number]);
      fly(moves, 3, "pass");
      fresh = new Set(b.received ?? []);
      later(FRESH_MS, () => { fresh = new Set(); render(); });
    }
    const taker = b.kitty.taken_by;
    if ((a.kitty.taken_by === null || a.kitty.taken_by === undefined) && taker !== null && taker !== undefined && a.round === b.round) {
      fly([[null, taker]], b.kitty.size, "kitty");
    }
    const cancelledBefore = new Set((a.trick?.plays ?? []).filter((p) => p.cancelled).map((p) => p.card));
    const newly = (b.trick?.plays ?? []).filter((p) => p.cancelled && !cancelledBefore.has(p.card)).map((p) => p.card);
    if (newly.length && a.round === b.round) {
      const shortName = face(newly[0]!).short;
      flash = { cards: new Set(newly), note: `${shortName} cancels ${shortName}` };
      later(FLASH_MS, () => { flash = null; render(); });
    }
  }

  // ---------------------------------------------------------------- the log
  // Events, worded at each render with the seats as they are now; and every
  // card played, in order, to rebuild the round's tricks (tricks.ts).
  let log: EventResource[] = [];
  const plays = new Map<number, Play>();
  const addLog = (entries: EventResource[]) => {
    for (const e of entries) {
      if (e.type === "move" && e.payload.type === "play" && e.actor.seat !== null && e.actor.seat !== undefined) {
        plays.set(e.seq, { seat: e.actor.seat, card: String((e.payload as { card: string }).card) });
      }
    }
    // Two rounds' plays are all the page needs (at most 208 at ten seats): older ones go.
    if (plays.size > 2 * BACKLOG) for (const seq of [...plays.keys()].sort((a, b) => a - b).slice(0, plays.size - BACKLOG)) plays.delete(seq);
    const seen = new Set(log.map((e) => e.seq));
    log = [...log, ...entries.filter((e) => !seen.has(e.seq))].sort((a, b) => b.seq - a.seq).slice(0, 40);
  };
  const playsInOrder = () => [...plays.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);

  /** The round's tricks so far and the previous round's, rebuilt from the plays seen and checked against the view. */
  function rebuiltTricks(g: Game): { current: DoneTrick[] | null; previous: DoneTrick[] | null } {
    const none = { current: null, previous: null };
    if (Object.keys(g.view).length === 0) return none;
    let rules: Rules, previousRules: Rules, completed: number, onTable: number;
    let last: { plays: Play[] } | null;
    let lastOfPrevious: { plays: Play[] } | null = null;
    if (g.kind === "lost-heir") {
      const v = g.view as LostHeirView;
      rules = { kind: "lost-heir", players: v.players, trumps: v.trumps ?? null };
      previousRules = { kind: "lost-heir", players: v.players, trumps: v.score_sheet[v.score_sheet.length - 1]?.trumps ?? null };
      completed = v.sides.reduce((sum, s) => sum + s.tricks, 0) * v.players;
      onTable = v.trick.plays.length;
      last = v.last_trick && v.last_trick.round === v.round ? v.last_trick : null;
      lastOfPrevious = v.last_trick && v.last_trick.round !== v.round ? v.last_trick : null;
    } else {
      const v = g.view as HeartsView;
      rules = { kind: "cancellation-hearts", players: v.config.players, extend: v.config.all_cancelled === "extend" };
      previousRules = rules;
      completed = v.taken.reduce((sum, t) => sum + t.length, 0) + v.set_aside.length;
      onTable = v.trick?.plays.length ?? 0;
      last = completed > 0 ? v.last_trick ?? null : null;
    }
    const perRound = cardsPerHand(g.kind, rules.players) * rules.players;
    const { current, previous } = splitRounds(playsInOrder(), completed + onTable, perRound);
    const handsEmpty = (g.view as { hand_sizes: number[] }).hand_sizes.every((n) => n === 0);
    let now = current ? groupTricks(rules, current.slice(0, completed), handsEmpty) : null;
    // Rebuilt right, or not shown: the newest trick must be the view's last one.
    if (now && (now.reduce((sum, t) => sum + t.plays.length, 0) !== completed || (last && (!now.length || !sameTrick(now[now.length - 1]!, last))))) now = null;
    let before = previous ? groupTricks(previousRules, previous, true) : null;
    if (before && lastOfPrevious && (!before.length || !sameTrick(before[before.length - 1]!, lastOfPrevious))) before = null;
    return { current: now, previous: before };
  }

  const root = h("section", { class: "table-wrap", "data-game": id, "aria-label": "game" });
  const live = h("p", { class: "sr-only", "aria-live": "polite", id: "announce" });
  const talk = chat(id);
  // Table talk shows once the table is drawn above it, so that nothing on the page jumps as it loads.
  talk.element.hidden = true;
  clear(main, root, talk.element, live);
  root.append(h("p", { class: "muted" }, "Loading the table…"));

  const client = () => (token() ? api : publicApi);

  const ticker = setInterval(() => {
    for (const el of root.querySelectorAll<HTMLElement>("[data-deadline]")) {
      el.textContent = countdown(el.dataset.deadline);
    }
  }, 1000);

  async function loadLegal(g: Game): Promise<LegalMoves | null> {
    if (g.status !== "in_progress" || g.your_seat === null || g.your_seat === undefined) return null;
    if (!g.to_act.includes(g.your_seat)) return null;
    const { data } = await api.GET("/v1/games/{game_id}/legal-moves", { params: { path: { game_id: id } } });
    return data ?? null;
  }

  async function adopt(g: Game): Promise<void> {
    // Answers can cross (a move's answer and a stream-driven re-read): never go back.
    if (game && g.version < game.version) return;
    const l = await loadLegal(g);
    if (closed || (game && g.version < game.version)) return;
    // Keep a selection while the same prompt stands (others passing at the
    // same time move the version on), minus cards no longer offered.
    if (!l || l.prompt !== legal?.prompt) { selected.clear(); why.text = ""; }
    else {
      const from = new Set((l.legal as { from?: string[] }).from ?? []);
      for (const key of [...selected]) if (!from.has(key.split("#")[0]!)) selected.delete(key);
    }
    // A new turn to play: the keyboard starts at the first playable card, unless it is already in the hand.
    if (l && l.prompt !== legal?.prompt && !document.activeElement?.closest("#hand")) cursor.index = 0;
    // A refusal stays up until the table moves on.
    if (game && g.version > game.version) error = "";
    const turnChanged = !game || game.version !== g.version;
    const before = game;
    if (!before) notice.setPage(KIND_NAME[g.kind] ?? "Table");
    noticeMoments(before, g);
    game = g;
    talk.update(g);
    legal = l;
    closeSummaryOnPlay(g);
    notice.setTableTurn(myTurnText(g, l));
    // My turns changed here: the header's inbox re-reads (the player stream
    // announces new turns, not the end of one).
    if (turnChanged && g.your_seat !== null && g.your_seat !== undefined) window.dispatchEvent(new Event("cardgames:turns"));
    render();
  }

  /** The summary of a round stays until closed, my next move, or the next round's play under way for a while. */
  function closeSummaryOnPlay(g: Game): void {
    if (!summary || summary.manual) return;
    const v = g.view as { trick?: { plays: unknown[] } | null; score_sheet?: unknown[] };
    const stale = (v.score_sheet?.length ?? 0) - 1 !== summary.index || g.status === "finished";
    const playing = (v.trick?.plays.length ?? 0) > 0 && Date.now() > summary.from + SUMMARY_MS;
    if (stale || playing) summary = null;
  }

  function myTurnText(g: Game, l: LegalMoves | null): string | null {
    if (!l || l.legal.prompt === "none") return null;
    return ({ play_card: "play a card", play: "play a card", bid: "bid or pass", decide: "accept or reject the bid", name_trumps: "name trumps",
      pass_cards: "choose cards to pass", discard: "discard from the kitty", moon: "choose how the moon counts" } as Record<string, string>)[l.legal.prompt] ?? "your move";
  }

  async function refresh(): Promise<void> {
    if (refreshing) { dirty = true; return; }
    refreshing = true;
    try {
      do {
        dirty = false;
        const { data, error: problem } = await client().GET("/v1/games/{game_id}", { params: { path: { game_id: id } } });
        if (closed) return;
        if (data) {
          if (error === UNREACHABLE) error = "";
          await adopt(data);
        } else { error = problemText(problem); render(); }
      } while (dirty && !closed);
    } finally {
      refreshing = false;
    }
  }

  async function connect(): Promise<void> {
    const ticket = await streamTicket();
    if (closed) return;
    // Signed in but no ticket (the server unreachable): try again, never
    // fall back to a spectator's stream.
    if (token() && !ticket) { setTimeout(() => { if (!closed) void connect(); }, 2000); return; }
    const query = new URLSearchParams();
    if (ticket) query.set("ticket", ticket);
    if (lastSeq) query.set("after", lastSeq);
    query.set("messages_after", String(talk.after()));
    const source = new EventSource(`/v1/games/${id}/stream${query.size ? `?${query}` : ""}`);
    es = source;
    talk.listen(source);
    source.addEventListener("snapshot", (e) => {
      const m = e as MessageEvent<string>;
      if (m.lastEventId) lastSeq = m.lastEventId;
      const g = JSON.parse(m.data) as Game;
      if (error === UNREACHABLE) error = "";
      // The first time, the log first: the table is then drawn whole at once (its tricks, the log).
      if (!game) void history(g).then(() => adopt(g));
      else void adopt(g);
    });
    for (const name of ["seat_taken", "seat_left", "game_started", "move", "autoplay", "deadline_expired", "game_finished", "game_expired", "seat_resigned", "hint_given"]) {
      source.addEventListener(name, (e) => {
        const m = e as MessageEvent<string>;
        if (m.lastEventId) lastSeq = m.lastEventId;
        const event = JSON.parse(m.data) as EventResource;
        addLog([event]);
        if (game) live.textContent = eventText(game, event);
        // A hint changes no state (no state frame follows): the log is drawn now.
        if (event.type === "hint_given" && game) render();
      });
    }
    source.addEventListener("state", () => { void refresh(); });
    source.onerror = () => {
      // While its ticket lives EventSource reconnects by itself with
      // Last-Event-ID; a finished game answers 204 and it stops. Once it
      // gave up on a game still running: a new ticket, `after=` the last seq.
      if (source.readyState !== EventSource.CLOSED || closed || es !== source) return;
      if (game && (game.status === "finished" || game.status === "expired")) return;
      setTimeout(() => { if (es === source && !closed) void connect(); }, 1000);
    };
  }

  /** The log before the page opened (get_events), as the viewer may see it: this round's plays and the last one's. */
  async function history(g: Game): Promise<void> {
    const after = Math.max(0, g.version - BACKLOG);
    const { data } = await client().GET("/v1/games/{game_id}/events", { params: { path: { game_id: id }, query: { after, limit: BACKLOG } } });
    if (!data || closed) return;
    addLog(data.events);
  }

  async function send(move: Move): Promise<void> {
    error = "";
    why.text = "";
    if (summary && !summary.manual) summary = null;
    const { data, error: problem } = await api.POST("/v1/games/{game_id}/moves", { params: { path: { game_id: id } }, body: move });
    if (data) await adopt(data.game);
    else { error = problemText(problem); render(); }
  }

  async function action(run: () => Promise<{ data?: Game; error?: unknown }>): Promise<void> {
    error = "";
    const { data, error: problem } = await run();
    if (data) await adopt(data);
    else { error = problemText(problem); render(); }
  }

  const hints = new HintBox(id, () => render());
  const v = views({
    legal: () => legal, selected, send, render,
    hold: () => hold,
    lastOpen: () => lastOpen,
    toggleLast: () => { lastOpen = !lastOpen; render(); },
    problem: () => h("p", { class: "error", role: "alert", id: "problem" }, error),
    overlay: () => (game && summary && Date.now() >= summary.from ? roundSummary(game, summary.index, () => { summary = null; render(); }) : null),
    flight: () => flight,
    tricks: () => (game ? rebuiltTricks(game).current : null),
    tricksOpen,
    cursor,
    why,
    fresh: () => fresh,
    flash: () => flash,
  });

  /** The tricks of the score sheet's row `index`, when it is the round just over and the log seen has them. */
  function tricksOfRound(g: Game, index: number): DoneTrick[] | null {
    const view = g.view as LostHeirView | HeartsView;
    const row = view.score_sheet[index];
    if (!row || index !== view.score_sheet.length - 1) return null;
    // Once the game is over no new round is dealt: the view's round is the one summed up.
    const rebuilt = rebuiltTricks(g);
    return row.round === view.round ? rebuilt.current : rebuilt.previous;
  }

  /** A round's summary, with "who took what" from the rebuilt tricks when it is the round just over. */
  function roundSummary(g: Game, index: number, onClose: (() => void) | null): HTMLElement | null {
    const view = g.view as LostHeirView | HeartsView;
    const tricks = tricksOfRound(g, index);
    return g.kind === "lost-heir"
      ? lhRoundSummary(g, view as LostHeirView, index, tricks, onClose)
      : chRoundSummary(g, view as HeartsView, index, tricks, onClose);
  }

  function render(): void {
    try {
      draw();
    } catch (e) {
      console.error("render failed", e);
      throw e;
    }
  }

  function draw(): void {
    if (!game) { clear(root, h("p", { class: "error", role: "alert" }, error || "Loading…")); return; }
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const focused = active?.dataset.key;
    const handIndex = active?.closest("#hand") ? Number(active.dataset.index) : null;
    const g = game;
    const mine = g.your_seat ?? null;
    const dealt = Object.keys(g.view).length > 0;
    const fresh = h("div", {},
      statusBar(g),
      g.status === "finished" && dealt ? finale(g) : null,
      !dealt ? [controls(g), waitingRoom(g), h("p", { class: "error", role: "alert", id: "problem" }, error)]
        : [g.kind === "lost-heir" ? v.lostHeirTable(g, g.view as LostHeirView, mine) : v.heartsTable(g, g.view as HeartsView, mine), controls(g)],
      h("details", { class: "card-panel log", open: true }, h("summary", {}, "What happened"),
        h("ol", { id: "log" }, log.slice(0, 12).map((e) => h("li", { value: e.seq }, eventText(g, e))))));
    patchChildren(root, fresh);
    hints.mark(root);
    talk.element.hidden = false;
    // What the browser test reads, set once the table shows it.
    root.dataset.version = String(g.version);
    root.dataset.status = g.status;
    root.dataset.viewer = g.viewer;
    root.dataset.round = String((g.view as { round?: number }).round ?? "");
    root.dataset.prompt = legal?.legal.prompt ?? "none";
    root.dataset.rounds = String((g.view as { score_sheet?: unknown[] }).score_sheet?.length ?? 0);
    if (focused && !root.contains(document.activeElement)) root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
    // A card played (or the hand redrawn under the keyboard): focus stays in the hand, at the same place.
    const hand = root.querySelector("#hand");
    if (handIndex !== null && hand && !hand.contains(document.activeElement)) {
      const cards = hand.querySelectorAll<HTMLElement>("button.card");
      const target = cards[Math.min(Math.max(handIndex, 1), cards.length) - 1];
      if (target) { cards.forEach((c) => c.setAttribute("tabindex", c === target ? "0" : "-1")); target.focus(); }
    }
  }

  /** The end of the game: winners, standings, the chart, the last round's summary, rematch and replay. */
  function finale(g: Game): HTMLElement {
    challenges ??= new ChallengeBox("end-challenge", g.kind as Kind);
    const box = challenges;
    const others = otherPlayers(g);
    // Beside a standing: a Challenge button for each other person of it (never me, never a bot).
    const beside = (seats: number[]) => seats.flatMap((s) => others.filter((o) => o.player_id === g.seats[s]?.player_id))
      .map((o) => [" ", box.button([o])]);
    const again = others.length > 1 ? h("p", { class: "challenge-again" }, box.button(others, "Challenge everyone at this table again")) : null;
    const after = [again, box.element];
    const extra = [
      seriesPanel(g, render, (text) => { error = text; render(); }),
      h("p", { class: "end-links" }, h("a", { href: `#/replay/${g.id}`, id: "replay-link" }, "Replay and analyse this game"), " · ", h("a", { href: "#/" }, "Back to the lobby")),
    ];
    if (g.kind === "lost-heir") {
      const lv = g.view as LostHeirView;
      const standings = lv.sides.map((s, i) => ({ name: sideNames(g, lv, i), score: s.score, seats: s.seats }));
      const last = lv.score_sheet.length ? roundSummary(g, lv.score_sheet.length - 1, null) : null;
      return endScreen(g, standings, false, lv.score_sheet.length > 1 ? scoreChart(lhSeries(g, lv), lv.target, false) : null, [last, ...extra], beside, after);
    }
    const hv = g.view as HeartsView;
    const standings = [...Array(hv.config.players).keys()].map((s) => ({ name: seatName(g, s), score: hv.scores[s] ?? 0, seats: [s] }));
    const last = hv.score_sheet.length ? roundSummary(g, hv.score_sheet.length - 1, null) : null;
    return endScreen(g, standings, true, hv.score_sheet.length > 1 ? scoreChart(chSeries(g, hv), hv.config.target, true) : null, [last, ...extra], beside, after);
  }

  /** Before the deal (no view yet): who sits where, and the invitation. */
  function waitingRoom(g: Game): HTMLElement {
    const config = g.config as { players: number; target: number; partnerships?: boolean; all_cancelled?: string };
    return h("div", { class: "card-panel", id: "waiting" },
      h("h2", {}, "Waiting for every seat to fill"),
      h("p", {}, `${config.players} players, first to ${config.target}`,
        config.partnerships ? ", partners sit across" : "",
        config.all_cancelled ? (config.all_cancelled === "extend" ? ", an all-cancelled trick goes round again" : ", an all-cancelled trick is set aside") : "",
        g.move_deadline_secs ? `, ${g.move_deadline_secs} s per move` : "", ". ",
        h("a", { href: `#/rules/${g.kind}` }, "How to play")),
      h("ul", {}, g.seats.map((s) => h("li", {}, `Seat ${s.seat}: ${s.occupant === "open" ? "open" : seatName(g, s.seat)}${s.seat === g.your_seat ? " (you)" : ""}`))),
      inviteBox(g));
  }

  function statusBar(g: Game): HTMLElement {
    const toAct = g.to_act.map((s) => seatName(g, s)).join(", ");
    const seated = g.your_seat !== null && g.your_seat !== undefined;
    const myTurn = seated && g.to_act.includes(g.your_seat!) && g.status === "in_progress";
    return h("div", { class: "status-bar" },
      h("h1", {}, KIND_NAME[g.kind] ?? g.kind),
      h("span", { class: `pill status-${g.status}` }, g.status.replace("_", " ")),
      // Only someone without a seat watches; a host waiting for players does not.
      g.viewer === "spectator" && !seated ? h("span", { class: "pill", id: "watching" }, "watching: public view only") : null,
      g.status === "in_progress"
        ? h("span", { class: myTurn ? "turn mine" : "turn", id: "whose-turn" }, myTurn ? "Your turn" : `Waiting for ${toAct}`)
        : null,
      g.hints ? h("span", { class: "pill", id: "hints-allowed", title: "the seated players may ask the expert bot what it would play; never in a rated game" }, "hints allowed · unrated") : null,
      hints.element(g, legal),
      g.deadline_at && g.status === "in_progress"
        ? h("span", { class: "deadline" }, "Time left: ", h("span", { "data-deadline": g.deadline_at, id: "deadline" }, countdown(g.deadline_at)),
          g.on_deadline === "forfeit" ? " (then the seat forfeits)" : " (then the bot moves)")
        : null,
      h("a", { href: `#/rules/${g.kind}`, class: "rules-link" }, "Rules"),
      g.status === "in_progress" && game && (g.view as { score_sheet?: unknown[] }).score_sheet?.length && !summary
        ? h("button", { type: "button", class: "link", id: "show-summary", "data-key": "show-summary", onclick: () => {
          summary = { index: ((g.view as { score_sheet: unknown[] }).score_sheet.length - 1), manual: true, from: 0 };
          render();
        } }, "Last round")
        : null);
  }

  function controls(g: Game): HTMLElement | null {
    const m = me();
    const mine = g.your_seat;
    const box = h("div", { class: "controls" });
    if (g.status === "open") {
      if (mine === null || mine === undefined) {
        if (m) {
          for (const s of g.seats.filter((s) => s.occupant === "open" && (!s.invited_player_id || s.invited_player_id === m.player_id))) {
            box.append(h("button", { type: "button", class: "join", "data-key": `join-${s.seat}`,
              onclick: () => void action(async () => api.POST("/v1/games/{game_id}/join", { params: { path: { game_id: id } }, body: { seat: s.seat } })) },
            `Take seat ${s.seat}`));
          }
        } else {
          box.append(h("a", { href: `#/invite/${g.id}` }, "Choose a display name to join"));
        }
      } else {
        box.append(h("span", { class: "muted" }, "Waiting for players… "),
          h("button", { type: "button", id: "leave", onclick: () => void action(async () => api.POST("/v1/games/{game_id}/leave", { params: { path: { game_id: id } } })) }, "Leave this game"));
      }
    }
    if (g.status === "in_progress" && mine !== null && mine !== undefined) {
      const seat = g.seats[mine];
      if (seat) {
        const on = seat.autoplay;
        const level = h("select", { id: "autoplay-level", "aria-label": "which bot plays my seat", disabled: on || seat.forfeited },
          h("option", { value: "sensible" }, "sensible bot"),
          h("option", { value: "expert" }, "expert bot"),
          h("option", { value: "random" }, "random bot")) as HTMLSelectElement;
        level.value = seat.bot_level ?? "sensible";
        box.append(h("button", { type: "button", id: "autoplay", "aria-pressed": on ? "true" : "false", disabled: seat.forfeited,
          onclick: () => void action(async () => api.POST("/v1/games/{game_id}/autoplay", {
            params: { path: { game_id: id } },
            body: on ? { enabled: false } : { enabled: true, level: level.value as Schemas["BotLevel"] },
          })) },
        seat.forfeited ? "Forfeited: the bot plays this seat" : on ? "Take my seat back from the bot" : "Hand my seat to the bot"), level);
      }
    }
    box.append(resignControls(g, action, render) ?? "");
    return box.childElementCount ? box : null;
  }

  notice.setPage("Table");
  void connect();
  return () => {
    closed = true;
    clearInterval(ticker);
    clearTimeout(holdTimer);
    for (const t of timers) clearTimeout(t);
    es?.close();
    es = null;
    notice.setTableTurn(null);
  };
}
