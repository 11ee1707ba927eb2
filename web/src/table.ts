// The table: exactly the seat's view (get_game's view and get_legal_moves),
// followed live through the game stream (stream_game with a stream ticket,
// resumed with Last-Event-ID by EventSource or `after=` on a new ticket).
// Each `state` frame re-reads the view; nothing polls.
import {
  api, me, problemText, UNREACHABLE, publicApi, streamTicket, token,
  type EventResource, type Game, type HeartsView, type LegalMoves, type LostHeirView, type Move, type Schemas,
} from "./api";
import { cityName, face, isStandard, label, sorted } from "./cards";
import { chat } from "./chat";
import { clear, countdown, h, patchChildren, type Children } from "./dom";
import { faceUrl } from "./faces";
import { resignControls, seriesPanel } from "./series";

type Seat = Schemas["SeatResource"];
type LHCall = Schemas["LostHeirCall"] | null;

const KIND_NAME: Record<string, string> = { "lost-heir": "Lost Heir", "cancellation-hearts": "Cancellation Hearts" };
const HOLD_MS = 1500;
const GATHER_MS = 450;

export function seatName(game: Pick<Game, "seats">, seat: number): string {
  const s = game.seats[seat];
  if (!s) return `seat ${seat}`;
  if (s.occupant === "bot") return `Bot ${seat}`;
  return s.display_name ?? `open seat ${seat}`;
}

/** How a bot seat is tagged: "bot" for the sensible bot, else its level. */
function botTag(level: Schemas["BotLevel"] | null | undefined): string {
  return !level || level === "sensible" ? "bot" : `${level} bot`;
}

/** A card as a non-interactive picture of its face. */
export function chip(card: string, extra = ""): HTMLElement {
  const f = face(card);
  return h("span", { class: `card chip ${f.suit} ${extra}`, title: f.name, role: "img", "aria-label": label(card), "data-card": card },
    h("img", { src: faceUrl(card), alt: "", draggable: "false", width: "60", height: "84" }));
}

/** A card in a sentence: "Q♠ queen of spades", "Toronto Chief of Police". */
function cardText(card: string): string {
  return isStandard(card) ? label(card) : face(card).name;
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
    case "seat_resigned": return `${who(e.payload.seat)} resigns${e.payload.policy === "end_game" ? ": the game ends" : ": the bot plays the seat"}`;
    default: return "event";
  }
}

export function table(main: HTMLElement, id: string): () => void {
  let game: Game | null = null;
  let legal: LegalMoves | null = null;
  let es: EventSource | null = null;
  let lastSeq = "";
  let closed = false;
  let refreshing = false;
  let dirty = false;
  let error = "";
  const selected = new Set<string>();
  // A trick that just completed stays on the felt a moment (HOLD_MS), then
  // slides to its winner (GATHER_MS; no motion when the reader asks for less).
  let hold: Hold | null = null;
  let lastTrickKey: string | null = null;
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  let lastOpen = false;
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
      if (matchMedia("(prefers-reduced-motion: reduce)").matches || hold.winner === null) { hold = null; render(); return; }
      hold.gathering = true;
      render();
      holdTimer = setTimeout(() => { hold = null; if (!closed) render(); }, GATHER_MS);
    }, HOLD_MS);
  };
  // Events, worded at each render with the seats as they are now.
  let log: EventResource[] = [];
  const addLog = (entries: EventResource[]) => {
    const seen = new Set(log.map((e) => e.seq));
    log = [...log, ...entries.filter((e) => !seen.has(e.seq))].sort((a, b) => b.seq - a.seq).slice(0, 40);
  };

  const root = h("section", { class: "table-wrap", "data-game": id, "aria-live": "off" });
  const live = h("p", { class: "sr-only", "aria-live": "polite", id: "announce" });
  const talk = chat(id);
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
    if (!l || l.prompt !== legal?.prompt) selected.clear();
    else {
      const from = new Set((l.legal as { from?: string[] }).from ?? []);
      for (const key of [...selected]) if (!from.has(key.split("#")[0]!)) selected.delete(key);
    }
    // A refusal stays up until the table moves on.
    if (game && g.version > game.version) error = "";
    const turnChanged = !game || game.version !== g.version;
    noticeTrick(g);
    game = g;
    talk.update(g);
    legal = l;
    // My turns changed here: the header's inbox re-reads (the player stream
    // announces new turns, not the end of one).
    if (turnChanged && g.your_seat !== null && g.your_seat !== undefined) window.dispatchEvent(new Event("cardgames:turns"));
    render();
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
      if (!game) void history(g);
      void adopt(g);
    });
    for (const name of ["seat_taken", "seat_left", "game_started", "move", "autoplay", "deadline_expired", "game_finished", "game_expired", "seat_resigned"]) {
      source.addEventListener(name, (e) => {
        const m = e as MessageEvent<string>;
        if (m.lastEventId) lastSeq = m.lastEventId;
        const event = JSON.parse(m.data) as EventResource;
        if (game) {
          const text = eventText(game, event);
          addLog([event]);
          live.textContent = text;
        }
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

  /** The log's last events before the page opened (get_events), as the viewer may see them. */
  async function history(g: Game): Promise<void> {
    const after = Math.max(0, g.version - 12);
    const { data } = await client().GET("/v1/games/{game_id}/events", { params: { path: { game_id: id }, query: { after, limit: 12 } } });
    if (!data || closed) return;
    addLog(data.events);
    render();
  }

  async function send(move: Move): Promise<void> {
    error = "";
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

  const v = views({
    legal: () => legal, selected, send, render,
    hold: () => hold,
    lastOpen: () => lastOpen,
    toggleLast: () => { lastOpen = !lastOpen; render(); },
    problem: () => h("p", { class: "error", role: "alert", id: "problem" }, error),
  });

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
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.key : undefined;
    const g = game;
    const mine = g.your_seat ?? null;
    const fresh = h("div", {},
      statusBar(g),
      Object.keys(g.view).length === 0 ? [controls(g), waitingRoom(g), h("p", { class: "error", role: "alert", id: "problem" }, error)]
        : [g.kind === "lost-heir" ? v.lostHeirTable(g, g.view as LostHeirView, mine) : v.heartsTable(g, g.view as HeartsView, mine), controls(g)],
      h("details", { class: "card-panel log", open: true }, h("summary", {}, "What happened"),
        h("ol", { id: "log" }, log.slice(0, 12).map((e) => h("li", { value: e.seq }, eventText(g, e))))));
    patchChildren(root, fresh);
    // What the browser test reads, set once the table shows it.
    root.dataset.version = String(g.version);
    root.dataset.status = g.status;
    root.dataset.viewer = g.viewer;
    root.dataset.round = String((g.view as { round?: number }).round ?? "");
    root.dataset.prompt = legal?.legal.prompt ?? "none";
    root.dataset.rounds = String((g.view as { score_sheet?: unknown[] }).score_sheet?.length ?? 0);
    if (focused && !root.contains(document.activeElement)) root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]:not([disabled])`)?.focus();
  }

  /** Before the deal (no view yet): who sits where. */
  function waitingRoom(g: Game): HTMLElement {
    const config = g.config as { players: number; target: number; partnerships?: boolean; all_cancelled?: string };
    return h("div", { class: "card-panel", id: "waiting" },
      h("h2", {}, "Waiting for every seat to fill"),
      h("p", {}, `${config.players} players, target ${config.target}`,
        config.partnerships ? ", partnerships (LH-3)" : "",
        config.all_cancelled ? (config.all_cancelled === "extend" ? ", all-cancelled tricks extend (CH-8)" : ", all-cancelled tricks carry over (CH-9)") : "",
        g.move_deadline_secs ? `, ${g.move_deadline_secs} s per move` : ""),
      h("ul", {}, g.seats.map((s) => h("li", {}, `Seat ${s.seat}: ${s.occupant === "open" ? "open" : seatName(g, s.seat)}`))));
  }

  function statusBar(g: Game): HTMLElement {
    const toAct = g.to_act.map((s) => seatName(g, s)).join(", ");
    const myTurn = g.your_seat !== null && g.your_seat !== undefined && g.to_act.includes(g.your_seat) && g.status === "in_progress";
    return h("div", { class: "status-bar" },
      h("h1", {}, KIND_NAME[g.kind] ?? g.kind),
      h("span", { class: `pill status-${g.status}` }, g.status.replace("_", " ")),
      g.viewer === "spectator" ? h("span", { class: "pill" }, "watching: public view only") : null,
      g.status === "in_progress"
        ? h("span", { class: myTurn ? "turn mine" : "turn", id: "whose-turn" }, myTurn ? "Your turn" : `Waiting for ${toAct}`)
        : null,
      g.deadline_at && g.status === "in_progress"
        ? h("span", { class: "deadline" }, "Time left: ", h("span", { "data-deadline": g.deadline_at, id: "deadline" }, countdown(g.deadline_at)),
          g.on_deadline === "forfeit" ? " (then the seat forfeits)" : " (then the bot moves)")
        : null,
      g.status === "finished" ? h("a", { href: `#/replay/${g.id}`, id: "replay-link" }, "Replay this game") : null);
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
          box.append(h("a", { href: "#/" }, "Choose a display name to join"));
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
    box.append(resignControls(g, action, render) ?? "", seriesPanel(g, render, (text) => { error = text; render(); }) ?? "");
    return box.childElementCount ? box : null;
  }

  void connect();
  return () => {
    closed = true;
    clearInterval(ticker);
    clearTimeout(holdTimer);
    es?.close();
    es = null;
  };
}

/** A completed trick kept on the felt for a moment, then gathered to its winner. */
export interface Hold {
  plays: { seat: number; card: string; cancelled?: boolean }[];
  winner: number | null;
  gathering: boolean;
}

/** What the table's renderers need from their page. */
export interface Ctx {
  legal(): LegalMoves | null;
  selected: Set<string>;
  send(move: Move): Promise<void>;
  render(): void;
  /** The completed trick still shown, if any (the live table only). */
  hold?(): Hold | null;
  /** Whether the "Last trick" panel is open, and how to toggle it. */
  lastOpen?(): boolean;
  toggleLast?(): void;
  /** The refusal line, shown under the prompt. */
  problem?(): HTMLElement | null;
}

type Play = { seat: number; card: string; cancelled?: boolean };

/** The renderers of both kinds' tables (the live table and the replay share them). */
export function views(ctx: Ctx) {
  const selected = ctx.selected;
  // ---------------------------------------------------------------- the felt

  /** Seat `s` seen from `base` (the viewer's seat, at the bottom): 0 bottom, then clockwise. */
  const place = (s: number, base: number, n: number) => (s - base + n) % n;

  function seatPlate(g: Game, seat: Seat, mine: number | null, pos: number, lines: Children[], classes = ""): HTMLElement {
    const acting = g.to_act.includes(seat.seat) && g.status === "in_progress";
    const tags = [
      seat.seat === mine ? "you" : null,
      seat.occupant === "bot" ? botTag(seat.bot_level) : null,
      seat.autoplay && !seat.forfeited ? `${botTag(seat.bot_level)} playing` : null,
      seat.forfeited ? "forfeited" : null,
      seat.occupant === "open" ? "open" : null,
    ].filter(Boolean) as string[];
    return h("div", { class: `seat pos-${pos}${acting ? " acting" : ""}${seat.seat === mine ? " me" : ""}${classes}`, "data-seat": seat.seat },
      h("div", { class: "seat-name" }, acting ? h("span", { class: "to-act", "aria-label": "to act" }, "▶ ") : null,
        h("span", { class: "who-name" }, seatName(g, seat.seat))),
      tags.length ? h("div", { class: "tags" }, tags.join(", ")) : null,
      h("div", { class: "seat-info" }, lines));
  }

  /** The felt: a plate per seat around it, each seat's cards of the trick in front of it. */
  function feltTable(g: Game, n: number, mine: number | null, plates: (pos: number, s: number) => HTMLElement,
    trick: Play[], leader: number | null, centre: Children, last: { plays: Play[]; title: string } | null): HTMLElement {
    const base = mine ?? 0;
    const hold = ctx.hold?.() ?? null;
    const shown = hold ? hold.plays : trick;
    const bySeat = new Map<number, Play[]>();
    for (const p of shown) bySeat.set(p.seat, [...(bySeat.get(p.seat) ?? []), p]);
    const seats = [...Array(n).keys()];
    const slots = seats.map((s) => {
      const pos = place(s, base, n);
      const cards = bySeat.get(s) ?? [];
      const gather = hold?.gathering && hold.winner !== null ? ` pos-${place(hold.winner, base, n)} gather` : ` spot-${pos}`;
      return h("div", { class: `trick-slot${gather}${hold ? " held" : ""}`, "data-seat": s, "aria-label": `${seatName(g, s)} played` },
        cards.map((p) => chip(p.card, p.cancelled ? "played cancelled" : "played")),
        !cards.length && !hold && leader === s && !trick.length && g.status === "in_progress" ? h("span", { class: "empty-slot" }, "to lead") : null);
    });
    const open = ctx.lastOpen?.() ?? false;
    const toggle = last && ctx.toggleLast
      ? h("button", { type: "button", class: "last-toggle", id: "last-trick-toggle", "data-key": "last-trick-toggle", "aria-pressed": open ? "true" : "false", onclick: () => ctx.toggleLast?.() },
        open ? "Hide last trick" : "Last trick")
      : null;
    const panel = last && (open || !ctx.toggleLast)
      ? h("div", { class: `last-trick${ctx.toggleLast ? " overlay" : ""}`, id: "last-trick" }, h("div", { class: "last-title" }, last.title),
        h("div", { class: "last-cards" }, last.plays.map((p) => h("div", { class: "last-play" }, chip(p.card, p.cancelled ? "small cancelled" : "small"), h("span", {}, seatName(g, p.seat))))),
        ctx.toggleLast ? h("button", { type: "button", class: "last-toggle", id: "last-trick-close", "data-key": "last-trick-close", onclick: () => ctx.toggleLast?.() }, "Close") : null)
      : null;
    const felt = h("div", { class: `felt ring-${n}`, id: "felt" },
      seats.map((s) => plates(place(s, base, n), s)),
      slots,
      // While a completed trick is held, the note speaks of it, not of the next one.
      h("div", { class: "felt-note", id: "trick-info" },
        hold ? h("div", { class: "trumps" }, hold.winner !== null ? `${seatName(g, hold.winner)} takes the trick` : "The trick is set aside") : centre,
        hold ? null : toggle),
      ctx.toggleLast ? panel : null);
    // Without a toggle (the replay) the last trick is shown under the felt.
    return ctx.toggleLast ? felt : h("div", { class: "felt-box" }, felt, panel);
  }

  /** Why a card in my hand cannot be played now (its tooltip). */
  function whyNot(card: string, follow: string | null, leading: boolean, rule: (card: string) => string | null): string {
    return rule(card) ?? (follow && !leading ? `You must follow ${follow}` : "Not playable now");
  }

  function cardButton(card: string, enabled: boolean, pressed: boolean | null, onClick: () => void, index: number, extra: string, title: string): HTMLButtonElement {
    const f = face(card);
    return h("button", {
      type: "button", class: `card ${f.suit}${pressed ? " picked" : ""}${extra}`, "aria-label": label(card), title,
      disabled: !enabled, "aria-pressed": pressed === null ? null : pressed ? "true" : "false",
      "data-card": card, "data-key": `card-${card}-${index}`, onclick: onClick,
    }, h("img", { src: faceUrl(card), alt: "", draggable: "false", width: "60", height: "84" }));
  }

  /**
   * My hand, sorted by suit and fanned (overlapping, every index visible);
   * more than 12 cards make two rows, so a phone shows it whole. Playable
   * cards (and only those) can be pressed and stand out; while it is my turn
   * to play the others dim slightly and say why.
   */
  function handRow(cards: readonly string[], play: { cards: Set<string>; why: (card: string) => string } | null,
    pick: { count: number; from: Set<string> } | null, onPlay: (c: string) => void): HTMLElement {
    const all = sorted(cards);
    const seen = new Map<string, number>();
    const buttons = all.map((card, i) => {
      const n = (seen.get(card) ?? 0) + 1;
      seen.set(card, n);
      const key = n > 1 ? `${card}#${n}` : card;
      const name = face(card).name;
      if (pick) {
        const on = selected.has(key);
        return cardButton(card, pick.from.has(card) && (on || selected.size < pick.count), on, () => {
          if (on) selected.delete(key); else selected.add(key);
          ctx.render();
        }, i + 1, "", on ? `${name}: chosen (press again to put it back)` : name);
      }
      const ok = play?.cards.has(card) ?? false;
      return cardButton(card, ok, null, () => onPlay(card), i + 1, ok ? " playable" : "", play && !ok ? `${name}: ${play.why(card)}` : name);
    });
    const rows = buttons.length > 12 ? [buttons.slice(0, Math.ceil(buttons.length / 2)), buttons.slice(Math.ceil(buttons.length / 2))] : [buttons];
    return h("div", { class: `hand${play ? " to-play" : ""}${pick ? " to-pick" : ""}`, id: "hand", role: "group", "aria-label": "your hand" },
      cards.length === 0 ? h("span", { class: "muted" }, "no cards") : null,
      buttons.length ? rows.map((row) => h("div", { class: "hand-row" }, row)) : null);
  }

  function pickedCards(): string[] {
    return [...selected].map((k) => k.split("#")[0]!);
  }

  function choiceButtons(moves: Move[], text: (m: Move) => string): HTMLElement {
    return h("div", { class: "choices", role: "group", "aria-label": "your choices" },
      moves.map((m, i) => h("button", { type: "button", class: "choice", "data-key": `choice-${i}`, onclick: () => void ctx.send(m) }, text(m))));
  }

  /** A prompt: plain words, the rulings behind them as a small detail. */
  function ask(title: string, words: string, rulings: string): Children[] {
    return [h("h2", {}, title, " ", h("span", { class: "rule-ids", title: "rulings (docs/rules)" }, rulings)), words ? h("p", { class: "ask" }, words) : null];
  }

  function idle(g: Game, mine: number | null): HTMLElement {
    const waiting = g.to_act.map((s) => seatName(g, s)).join(", ");
    return h("p", { class: "muted ask" }, g.status === "finished" ? finishedText(g)
      : mine === null ? `You are watching${waiting ? `: ${waiting} to act` : ""}.` : `Waiting for ${waiting || "the table"}.`);
  }

  // ---------------------------------------------------------------- Lost Heir

  function lostHeirTable(g: Game, v: LostHeirView, mine: number | null): HTMLElement {
    const n = v.players;
    const legal = ctx.legal();
    const prompt = legal?.legal.prompt ?? "none";
    const sideOf = (seat: number) => v.sides.find((s) => s.seats.includes(seat));
    const callText = (c: LHCall) => (c === null ? "" : c.type === "pass" ? "passed" : `bid ${c.points}`);
    const trumps = v.trumps ? cityName(v.trumps) : null;
    const follow = v.suit_to_follow === null || v.suit_to_follow === undefined ? null
      : v.suit_to_follow === "trumps" ? `trumps (${trumps ?? "?"}, the Lost Heir or the Wrong Boy)` : cityName(v.suit_to_follow.city);
    const plate = (pos: number, s: number) => {
      const seat = g.seats[s]!;
      const side = sideOf(s);
      const partner = v.partnerships && side ? side.seats.filter((x) => x !== s).map((x) => seatName(g, x)).join(", ") : "";
      const call = callText(v.calls[s] ?? null);
      return seatPlate(g, seat, mine, pos, [
        s === v.dealer ? h("span", { class: "pill dealer", title: "dealer" }, "dealer") : null,
        h("span", { class: "count" }, `${v.hand_sizes[s] ?? 0} cards`),
        call ? h("span", { class: "pill call" }, call) : null,
        side && !v.partnerships ? h("span", { class: "points" }, `${side.tricks} tr · ${side.points} pts`) : null,
        partner ? h("span", { class: "partner" }, `partner: ${partner}`) : null,
      ], v.partnerships && side ? ` team-${side.side}` : "");
    };
    const lastHere = v.last_trick && v.last_trick.round === v.round ? v.last_trick : null;
    const last = lastHere ? { plays: lastHere.plays as Play[], title: `Last trick: ${seatName(g, lastHere.winner)} took it (${lastHere.points} pts)` } : null;
    const blank = v.trick.plays.some((p) => p.card === "blank");
    const centre = [
      h("div", { id: "trumps", class: "trumps" }, trumps ? `Trumps: ${trumps}` : "Trumps not named yet"),
      follow && v.trick.plays.length ? h("div", {}, `Follow: ${v.suit_to_follow === "trumps" ? "trumps" : follow}`) : null,
      blank ? h("div", { id: "blank-played", class: "extension" }, "A Blank is in: heir and boy score nothing") : null,
    ];
    const felt = feltTable(g, n, mine, plate, v.trick.plays as Play[], v.trick.leader, centre, last);

    const contract = v.contract
      ? `contract: side of ${v.sides.find((s) => s.side === v.contract!.side)?.seats.map((x) => seatName(g, x)).join(" + ") ?? "?"} must take ${v.contract.points} points (LH-6)`
      : null;
    const decision = v.decision === "accepted" ? "the dealer accepted the highest bid (LH-6)"
      : v.decision === "rejected" ? "the dealer rejected the bid: the dealer's side scores nothing positive this round (LH-6, LH-11)"
      : v.decision === "all_passed" ? "everyone passed: the dealer names trumps, no contract (LH-6)" : null;
    const info = h("div", { class: "table-info card-panel", id: "round-info" },
      h("span", {}, `Round ${v.round}`), " · ",
      h("span", {}, `dealer ${seatName(g, v.dealer)}`), " · ",
      h("span", {}, trumps ? `trumps: ${trumps} (with the Lost Heir and the Wrong Boy, LH-7)` : "trumps not named yet"),
      v.highest_bid ? [" · ", h("span", {}, `highest bid ${v.highest_bid.points} by ${seatName(g, v.highest_bid.seat)}`)] : null,
      decision ? [" · ", h("span", { id: "decision" }, decision)] : null,
      contract ? [" · ", h("span", { id: "contract" }, contract)] : null,
      ` · target ${v.target}`,
      (v.hand ?? []).includes("blank")
        ? h("p", { class: "rule", id: "blank-rule" }, "Blanks: never win a trick (LH-10), and the Lost Heir and the Wrong Boy score nothing in a trick with one (LH-11).")
        : null);

    const handCards = (v.hand ?? []) as string[];
    const promptBox = h("div", { class: "prompt", id: "prompt" });
    const leading = v.trick.plays.length === 0;
    if (legal && prompt !== "none" && prompt !== "play_card") {
      const moves = choicesOf(legal.legal);
      const [title, words, rulings] = prompt === "bid"
        ? ["Your call", v.highest_bid ? `Bid more than ${v.highest_bid.points}, or pass.` : "Bid the points your side will take this round, or pass.", "LH-5"]
        : prompt === "decide" ? ["Accept or reject", `${seatName(g, v.highest_bid?.seat ?? 0)} bid ${v.highest_bid?.points ?? "?"}. Accept: they name trumps and you must make it. Reject: you name trumps but score nothing positive.`, "LH-6"]
        : ["Name trumps", "The Lost Heir and the Wrong Boy join that city.", "LH-7"];
      promptBox.append(...ask(title, words, rulings).filter((x): x is HTMLElement => !!x), choiceButtons(moves, (m) => {
        const t = moveText(m);
        return m.type === "bid" ? String((m as { points: number }).points) : t.charAt(0).toUpperCase() + t.slice(1);
      }));
    } else if (prompt === "play_card") {
      const blankNote = handCards.includes("blank") ? " A Blank only when you cannot follow." : "";
      const words = leading ? "Lead any card except a Blank." : `Follow ${follow} if you can, otherwise any card.${blankNote}`;
      promptBox.append(...ask("Your turn: play a card", words, leading ? "LH-8" : "LH-9").filter((x): x is HTMLElement => !!x));
    } else {
      promptBox.append(idle(g, mine));
    }
    const rule = (card: string) => card === "blank" ? (leading ? "A Blank cannot be led" : "A Blank only when you cannot follow") : null;
    const play = prompt === "play_card"
      ? { cards: new Set((legal!.legal as Schemas["LostHeirLegalPlayCard"]).cards as string[]), why: (c: string) => whyNot(c, follow, leading, rule) }
      : null;
    const hand = mine !== null
      ? h("div", { class: "hand-panel", id: "hand-panel" },
        handRow(handCards, play, null, (code) => {
          // The card as the legal-move set types it (only a listed card is playable).
          const card = (ctx.legal()?.legal as Schemas["LostHeirLegalPlayCard"] | undefined)?.cards?.find((c) => c === code);
          if (card) void ctx.send({ type: "play", card });
        }))
      : null;

    const allHands = v.hands
      ? h("div", { class: "card-panel" }, h("h2", {}, "Every hand"), v.hands.map((cards, s) =>
        h("div", { class: "hand-line" }, h("span", {}, `${seatName(g, s)}: `), sorted(cards as string[]).map((c) => chip(c, "small")))))
      : null;

    return h("div", { class: "felt-wrap" },
      felt, promptBox, ctx.problem?.() ?? null, hand,
      info, allHands,
      lhScores(g, v));
  }

  function lhScores(g: Game, v: LostHeirView): HTMLElement {
    const sideName = (i: number) => v.sides[i]?.seats.map((s) => seatName(g, s)).join(" + ") ?? `side ${i}`;
    return h("div", { class: "card-panel scores", id: "scores" }, h("h2", {}, "Scores"),
      h("div", { class: "scroll" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "Round"), h("th", {}, "Trumps"), v.sides.map((_, i) => h("th", {}, sideName(i))))),
        h("tbody", {},
          v.score_sheet.map((r) => h("tr", {}, h("td", {}, String(r.round)), h("td", {}, cityName(r.trumps)),
            r.round_scores.map((score, i) => h("td", {}, `${score >= 0 ? "+" : ""}${score} (${r.tricks[i] ?? 0} tr.) = ${r.totals[i] ?? ""}`)))),
          h("tr", { class: "current" }, h("td", {}, `${v.round} (now)`), h("td", {}, v.trumps ? cityName(v.trumps) : "–"),
            v.sides.map((s) => h("td", {}, `${s.tricks} tricks, ${s.points} pts`)))),
        h("tfoot", {}, h("tr", {}, h("th", {}, "Total"), h("td", {}), v.sides.map((s) => h("th", {}, String(s.score))))))));
  }

  // ---------------------------------------------------------------- Cancellation Hearts

  function heartsTable(g: Game, v: HeartsView, mine: number | null): HTMLElement {
    const n = v.config.players;
    const legal = ctx.legal();
    const prompt = legal?.legal.prompt ?? "none";
    const trick = v.trick;
    const phase = v.phase.name;
    const plate = (pos: number, s: number) => seatPlate(g, g.seats[s]!, mine, pos, [
      s === v.dealer ? h("span", { class: "pill dealer", title: "dealer" }, "dealer") : null,
      h("span", { class: "count" }, `${v.hand_sizes[s] ?? 0} cards`),
      h("span", { class: "points", title: "points this round, total" }, `${v.round_points[s] ?? 0} pts · total ${v.scores[s] ?? 0}`),
      phase === "passing" && v.still_to_pass.includes(s) ? h("span", { class: "pill call" }, "passing") : null,
      v.kitty.taken_by === s ? h("span", { class: "pill" }, "kitty") : null,
      trick?.winning === s ? h("span", { class: "pill winning" }, "winning") : null,
    ]);
    // A last trick of the previous round is not this round's (nothing taken or set aside yet).
    const thisRound = v.taken.some((t) => t.length > 0) || v.set_aside.length > 0;
    const last = v.last_trick && thisRound
      ? { plays: v.last_trick.plays as Play[], title: `Last trick: ${v.last_trick.winner !== null && v.last_trick.winner !== undefined ? `${seatName(g, v.last_trick.winner)} took it` : "set aside (CH-9)"}` }
      : null;
    const cancelledCount = (trick?.plays ?? []).filter((p) => p.cancelled).length;
    const centre = [
      trick?.led_suit ? h("div", {}, `${suitName(trick.led_suit)} led`) : null,
      trick && trick.circuits > 1 ? h("div", { class: "extension" }, `extended: circuit ${trick.circuits} (CH-8)`) : null,
      cancelledCount ? h("div", {}, `${cancelledCount} cancelled (CH-7)`) : null,
      v.set_aside.length ? h("div", { class: "set-aside" }, `${v.set_aside.length} cards set aside (CH-9)`) : null,
      !trick && phase === "passing" ? h("div", {}, v.pass_direction === "none" ? "no pass" : `passing ${v.pass_direction}`) : null,
    ];
    const felt = feltTable(g, n, mine, plate, (trick?.plays ?? []) as Play[], trick?.leader ?? null, centre, last);

    const ruleLine = v.config.all_cancelled === "extend"
      ? "A trick whose every card of the suit led is cancelled is extended by another circuit (CH-8)."
      : "A trick whose every card of the suit led is cancelled is set aside for the next trick's winner (CH-9).";
    const dirText = v.pass_direction === "none" ? "no pass this round (CH-3)" : `pass three cards ${v.pass_direction} (CH-3)`;
    const info = h("div", { class: "table-info card-panel", id: "round-info" },
      h("span", {}, `Round ${v.round + 1}`), " · ", h("span", {}, `dealer ${seatName(g, v.dealer)}`), " · ",
      h("span", { id: "pass-direction" }, dirText), " · ",
      h("span", { id: "phase" }, phaseText(g, v)), " · ",
      h("span", { id: "kitty" }, v.kitty.taken_by !== null && v.kitty.taken_by !== undefined
        ? `kitty of ${v.kitty.size} taken by ${seatName(g, v.kitty.taken_by)} (CH-10)` : `kitty: ${v.kitty.size} cards face down (CH-10)`), " · ",
      h("span", {}, v.hearts_broken ? "hearts broken" : "hearts not broken (CH-6)"),
      v.set_aside.length ? h("div", { class: "set-aside" }, "Set aside for the next trick (CH-9): ", v.set_aside.map((c) => chip(c, "small"))) : null,
      h("p", { class: "rule", id: "all-cancelled-rule" }, ruleLine));

    const promptBox = h("div", { class: "prompt", id: "prompt" });
    let pick: { count: number; from: Set<string> } | null = null;
    const firstTrick = v.taken.every((t) => t.length === 0) && v.set_aside.length === 0;
    const leading = !trick || trick.plays.length === 0;
    const led = trick?.led_suit ? suitName(trick.led_suit).split(" ")[0]! : null;
    if (legal && (prompt === "pass_cards" || prompt === "discard")) {
      const l = legal.legal as Schemas["CancellationHeartsLegalPassCards"] | Schemas["CancellationHeartsLegalDiscard"];
      pick = { count: l.count, from: new Set(l.from as string[]) };
      const cards = pickedCards();
      const [title, words, rulings] = prompt === "pass_cards"
        ? [`Pass ${l.count} cards ${v.pass_direction}`, `Tap ${l.count} cards, then pass them.`, "CH-3"]
        : [`Discard ${l.count} cards`, `You took the kitty: tap ${l.count} cards to discard face down.`, "CH-10"];
      promptBox.append(...ask(title, words, rulings).filter((x): x is HTMLElement => !!x),
        h("div", { class: "picked-line" }, cards.length ? cards.map((c) => chip(c, "small")) : h("span", { class: "muted" }, "none chosen"),
          h("button", { type: "button", id: "confirm-pick", class: "primary", "data-key": "confirm-pick", disabled: cards.length !== l.count,
            onclick: () => {
              // Each chosen card as the legal set types it (a card held twice is listed once).
              const typed = cards.map((code) => l.from.find((c) => c === code)).filter((c) => c !== undefined);
              if (typed.length !== l.count) return;
              void ctx.send(prompt === "pass_cards" ? { type: "pass_cards", cards: typed } : { type: "discard", cards: typed });
            } },
          prompt === "pass_cards" ? `Pass these ${l.count}` : `Discard these ${l.count}`)));
    } else if (legal && prompt === "moon") {
      promptBox.append(...ask("You shot the moon!", "Choose how the 26 points count.", "CH-12").filter((x): x is HTMLElement => !!x), choiceButtons(choicesOf(legal.legal), (m) => {
        const t = moveText(m);
        return t.replace("shoots the moon: ", "").replace(/^./, (c) => c.toUpperCase());
      }));
    } else if (prompt === "play") {
      const cards = (legal!.legal as Schemas["CancellationHeartsLegalPlay"]).cards as string[];
      const words = !leading ? `Follow ${led} if you can, otherwise any card${firstTrick ? " (no heart or queen of spades on the first trick)" : ""}.`
        : cards.length === 1 && cards[0] === "2C" ? "Lead the two of clubs."
        : v.hearts_broken ? "Lead any card." : "Lead any card but a heart: hearts are not broken yet.";
      promptBox.append(...ask("Your turn: play a card", words, leading ? "CH-4, CH-6" : "CH-5").filter((x): x is HTMLElement => !!x));
    } else {
      promptBox.append(idle(g, mine));
    }
    const rule = (card: string) => {
      const suit = card.slice(-1);
      if (leading && suit === "H" && !v.hearts_broken) return "Hearts are not broken yet";
      if (!leading && firstTrick && (suit === "H" || card === "QS") && suit !== trick?.led_suit) return "No heart or queen of spades on the first trick";
      if (leading && firstTrick) return "The two of clubs leads the first trick";
      return null;
    };
    const play = prompt === "play"
      ? { cards: new Set((legal!.legal as Schemas["CancellationHeartsLegalPlay"]).cards as string[]), why: (c: string) => whyNot(c, led, leading, rule) }
      : null;
    const hand = mine !== null
      ? h("div", { class: "hand-panel", id: "hand-panel" },
        handRow((v.hand ?? []) as string[], play, pick, (code) => {
          const card = (ctx.legal()?.legal as Schemas["CancellationHeartsLegalPlay"] | undefined)?.cards?.find((c) => c === code);
          if (card) void ctx.send({ type: "play", card });
        }))
      : null;
    const mineExtra = mine !== null && (v.passed?.length || v.received?.length || v.kitty.cards?.length || v.discards?.length)
      ? h("div", { class: "card-panel", id: "my-exchanges" },
        v.passed?.length ? h("div", { id: "passed" }, `You passed ${v.pass_direction}: `, v.passed.map((c) => chip(c, "small"))) : null,
        v.received?.length ? h("div", { id: "received" }, "You received: ", v.received.map((c) => chip(c, "small"))) : null,
        v.kitty.cards?.length ? h("div", { id: "kitty-cards" }, "The kitty you took: ", v.kitty.cards.map((c) => chip(c, "small"))) : null,
        v.discards?.length ? h("div", { id: "discards" }, "You discarded: ", v.discards.map((c) => chip(c, "small"))) : null)
      : null;
    const secrets = v.secrets
      ? h("div", { class: "card-panel" }, h("h2", {}, "Every hand"), v.secrets.hands.map((cards, s) =>
        h("div", { class: "hand-line" }, h("span", {}, `${seatName(g, s)}: `), sorted(cards as string[]).map((c) => chip(c, "small")))),
        v.secrets.kitty.length ? h("div", { class: "hand-line" }, "Kitty: ", v.secrets.kitty.map((c) => chip(c, "small"))) : null)
      : null;

    return h("div", { class: "felt-wrap" },
      felt, promptBox, ctx.problem?.() ?? null, hand,
      mineExtra, info, secrets,
      heartsScores(g, v));
  }
  function heartsScores(g: Game, v: HeartsView): HTMLElement {
    const n = v.config.players;
    const seats = [...Array(n).keys()];
    return h("div", { class: "card-panel scores", id: "scores" }, h("h2", {}, `Scores (lowest wins; the game ends at ${v.config.target}, CH-13)`),
      h("div", { class: "scroll" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "Round"), seats.map((s) => h("th", {}, seatName(g, s))))),
        h("tbody", {},
          v.score_sheet.map((r) => h("tr", {}, h("td", {}, `${r.round + 1}${r.moon ? ` (moon: ${seatName(g, r.moon.shooter)})` : ""}`),
            seats.map((s) => h("td", {}, `+${r.points[s] ?? 0} = ${r.scores[s] ?? 0}`)))),
          h("tr", { class: "current" }, h("td", {}, `${v.round + 1} (now)`), seats.map((s) => h("td", {}, `+${v.round_points[s] ?? 0}`)))),
        h("tfoot", {}, h("tr", {}, h("th", {}, "Total"), seats.map((s) => h("th", {}, String(v.scores[s] ?? 0))))))));
  }

  function phaseText(g: Game, v: HeartsView): string {
    const p = v.phase;
    switch (p.name) {
      case "passing": return `passing: waiting for ${v.still_to_pass.map((s) => seatName(g, s)).join(", ") || "nobody"}`;
      case "playing": return "playing";
      case "discarding": return `${seatName(g, p.seat)} took the kitty and discards (CH-10)`;
      case "moon": return `${seatName(g, p.shooter)} shot the moon and chooses (CH-12)`;
      case "over": return "the game is over";
      default: return "";
    }
  }

  function finishedText(g: Game): string {
    const o = g.outcome;
    if (!o) return "The game is over.";
    const winners = o.winners.map((s) => seatName(g, s)).join(", ") || "nobody";
    return `The game is over. Won by ${winners}. Scores: ${o.scores.map((s, i) => `${seatName(g, i)} ${s}`).join(", ")}.`;
  }

  return { lostHeirTable, heartsTable, finishedText };
}

/** The moves a non-card prompt offers, built from its typed legal-move set. */
function choicesOf(legal: Schemas["Legal"]): Move[] {
  switch (legal.prompt) {
    case "bid": {
      const l = legal as Schemas["LostHeirLegalBid"];
      const bids: Move[] = [];
      if (l.can_pass) bids.push({ type: "pass" });
      if (l.min_bid !== null && l.min_bid !== undefined && l.max_bid !== null && l.max_bid !== undefined) {
        for (let p = l.min_bid; p <= l.max_bid; p++) bids.push({ type: "bid", points: p });
      }
      return bids;
    }
    case "decide": return (legal as Schemas["LostHeirLegalDecide"]).moves.map((c) => ({ type: c }));
    case "name_trumps": return (legal as Schemas["LostHeirLegalNameTrumps"]).cities.map((city) => ({ type: "name_trumps", city }));
    case "moon": return (legal as Schemas["CancellationHeartsLegalMoon"]).choices.map((choice) => ({ type: "moon", choice }));
    default: return [];
  }
}

function suitName(s: string): string {
  return ({ C: "clubs ♣", D: "diamonds ♦", H: "hearts ♥", S: "spades ♠" } as Record<string, string>)[s] ?? s;
}
