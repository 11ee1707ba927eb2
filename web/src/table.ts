// The table: exactly the seat's view (get_game's view and get_legal_moves),
// followed live through the game stream (stream_game with a stream ticket,
// resumed with Last-Event-ID by EventSource or `after=` on a new ticket).
// Each `state` frame re-reads the view; nothing polls.
import {
  api, me, problemText, UNREACHABLE, publicApi, streamTicket, token,
  type EventResource, type Game, type HeartsView, type LegalMoves, type LostHeirView, type Move, type Schemas,
} from "./api";
import { bySuit, cityName, face, isStandard, label, sorted } from "./cards";
import { chat } from "./chat";
import { clear, countdown, h, patchChildren } from "./dom";
import { resignControls, seriesPanel } from "./series";

type Seat = Schemas["SeatResource"];
type LHCall = Schemas["LostHeirCall"] | null;
type HeartsPlay = Schemas["CancellationHeartsPlayView"];

const KIND_NAME: Record<string, string> = { "lost-heir": "Lost Heir", "cancellation-hearts": "Cancellation Hearts" };

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

/** A card as a non-interactive chip. */
export function chip(card: string, extra = ""): HTMLElement {
  const f = face(card);
  return h("span", { class: `card chip ${f.suit} ${extra}`, title: f.name, "aria-label": label(card), "data-card": card },
    h("span", { class: "face" }, f.short));
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

  const v = views({ legal: () => legal, selected, send, render });

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
      controls(g),
      Object.keys(g.view).length === 0 ? waitingRoom(g)
        : g.kind === "lost-heir" ? v.lostHeirTable(g, g.view as LostHeirView, mine) : v.heartsTable(g, g.view as HeartsView, mine),
      h("p", { class: "error", role: "alert", id: "problem" }, error),
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
    return h("div", { class: "status-bar card-panel" },
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
    es?.close();
    es = null;
  };
}

/** What the table's renderers need from their page. */
export interface Ctx {
  legal(): LegalMoves | null;
  selected: Set<string>;
  send(move: Move): Promise<void>;
  render(): void;
}

/** The renderers of both kinds' tables (the live table and the replay share them). */
export function views(ctx: Ctx) {
  const selected = ctx.selected;
  // ---------------------------------------------------------------- seats

  function seatPanel(g: Game, seat: Seat, mine: number | null, extra: (HTMLElement | string | null)[], trick: HTMLElement): HTMLElement {
    const acting = g.to_act.includes(seat.seat) && g.status === "in_progress";
    const tags = [
      seat.seat === mine ? "you" : null,
      seat.occupant === "bot" ? botTag(seat.bot_level) : null,
      seat.autoplay && !seat.forfeited ? `${botTag(seat.bot_level)} playing` : null,
      seat.forfeited ? "forfeited" : null,
      seat.occupant === "open" ? "open" : null,
    ].filter(Boolean) as string[];
    return h("div", { class: `seat${acting ? " acting" : ""}${seat.seat === mine ? " me" : ""}`, "data-seat": seat.seat },
      h("div", { class: "seat-name" }, acting ? h("span", { class: "to-act", "aria-label": "to act" }, "▶ ") : null,
        seatName(g, seat.seat), tags.length ? h("span", { class: "tags" }, ` (${tags.join(", ")})`) : null),
      h("div", { class: "seat-info" }, extra),
      trick);
  }

  function cardButton(card: string, enabled: boolean, pressed: boolean | null, onClick: () => void, index: number): HTMLButtonElement {
    const f = face(card);
    return h("button", {
      type: "button", class: `card ${f.suit}${pressed ? " picked" : ""}`, "aria-label": label(card), title: f.name,
      disabled: !enabled, "aria-pressed": pressed === null ? null : pressed ? "true" : "false",
      "data-card": card, "data-key": `card-${card}-${index}`, onclick: onClick,
    }, h("span", { class: "face" }, f.short));
  }

  /** My hand, by suit; playable cards (and only those) can be pressed. */
  function handRow(cards: readonly string[], playable: Set<string> | null, pick: { count: number; from: Set<string> } | null, onPlay: (c: string) => void): HTMLElement {
    const groups = bySuit(cards);
    let i = 0;
    const seen = new Map<string, number>();
    return h("div", { class: "hand", id: "hand", role: "group", "aria-label": "your hand" },
      cards.length === 0 ? h("span", { class: "muted" }, "no cards") : null,
      groups.map((group) => h("div", { class: "suit-group" }, group.map((card) => {
        const n = (seen.get(card) ?? 0) + 1;
        seen.set(card, n);
        const key = n > 1 ? `${card}#${n}` : card;
        i += 1;
        if (pick) {
          const on = selected.has(key);
          return cardButton(card, pick.from.has(card) && (on || selected.size < pick.count), on, () => {
            if (on) selected.delete(key); else selected.add(key);
            ctx.render();
          }, i);
        }
        return cardButton(card, playable?.has(card) ?? false, null, () => onPlay(card), i);
      }))));
  }

  function pickedCards(): string[] {
    return [...selected].map((k) => k.split("#")[0]!);
  }

  function choiceButtons(moves: Move[], text: (m: Move) => string): HTMLElement {
    return h("div", { class: "choices", role: "group", "aria-label": "your choices" },
      moves.map((m, i) => h("button", { type: "button", class: "choice", "data-key": `choice-${i}`, onclick: () => void ctx.send(m) }, text(m))));
  }

  // ---------------------------------------------------------------- Lost Heir

  function lostHeirTable(g: Game, v: LostHeirView, mine: number | null): HTMLElement {
    const n = v.players;
    const prompt = ctx.legal()?.legal.prompt ?? "none";
    const playable = prompt === "play_card" ? new Set((ctx.legal()!.legal as Schemas["LostHeirLegalPlayCard"]).cards as string[]) : null;
    const sideOf = (seat: number) => v.sides.find((s) => s.seats.includes(seat));
    const callText = (c: LHCall) => (c === null ? "" : c.type === "pass" ? "passed" : `bid ${c.points}`);
    const order = [...Array(n).keys()];
    const plays = new Map(v.trick.plays.map((p) => [p.seat, p.card as string]));
    const panels = order.map((s) => {
      const seat = g.seats[s]!;
      const side = sideOf(s);
      const partner = v.partnerships && side ? side.seats.filter((x) => x !== s).map((x) => seatName(g, x)).join(", ") : "";
      const card = plays.get(s);
      return seatPanel(g, seat, mine, [
        s === v.dealer ? h("span", { class: "pill dealer" }, "dealer") : null,
        h("span", {}, `${v.hand_sizes[s] ?? 0} cards`),
        callText(v.calls[s] ?? null) ? h("span", { class: "call" }, callText(v.calls[s] ?? null)) : null,
        partner ? h("span", { class: "partner" }, `partner: ${partner}`) : null,
        side && !v.partnerships ? h("span", {}, `tricks ${side.tricks}, points ${side.points}`) : null,
      ], h("div", { class: "trick-slot", "aria-label": `${seatName(g, s)} played` },
        card ? chip(card, "played") : h("span", { class: "empty-slot" }, v.trick.leader === s && !plays.size ? "leads" : "")));
    });

    const trumps = v.trumps ? cityName(v.trumps) : null;
    const follow = v.suit_to_follow === null || v.suit_to_follow === undefined ? null
      : v.suit_to_follow === "trumps" ? "trumps" : cityName(v.suit_to_follow.city);
    const contract = v.contract
      ? `contract: side of ${v.sides.find((s) => s.side === v.contract!.side)?.seats.map((x) => seatName(g, x)).join(" + ") ?? "?"} must take ${v.contract.points} points (LH-6)`
      : null;
    const decision = v.decision === "accepted" ? "the dealer accepted the highest bid (LH-6)"
      : v.decision === "rejected" ? "the dealer rejected the bid: the dealer's side scores nothing positive this round (LH-6, LH-11)"
      : v.decision === "all_passed" ? "everyone passed: the dealer names trumps, no contract (LH-6)" : null;
    const info = h("div", { class: "table-info card-panel", id: "round-info" },
      h("span", {}, `Round ${v.round}`), " · ",
      h("span", {}, `dealer ${seatName(g, v.dealer)}`), " · ",
      h("span", { id: "trumps" }, trumps ? `trumps: ${trumps} (with the Lost Heir and the Wrong Boy, LH-7)` : "trumps not named yet"),
      v.highest_bid ? [" · ", h("span", {}, `highest bid ${v.highest_bid.points} by ${seatName(g, v.highest_bid.seat)}`)] : null,
      decision ? [" · ", h("span", { id: "decision" }, decision)] : null,
      contract ? [" · ", h("span", { id: "contract" }, contract)] : null,
      follow ? [" · ", h("span", {}, `follow: ${follow} (LH-9)`)] : null,
      ` · target ${v.target}`);

    const blankNote = v.trick.plays.some((p) => p.card === "blank")
      ? h("div", { class: "felt-center", id: "blank-played" }, "A Blank is in this trick: the Lost Heir and the Wrong Boy score nothing in it (LH-11).")
      : null;
    const lastTrick = v.last_trick
      ? h("div", { class: "last-trick muted" }, `Last trick (${seatName(g, v.last_trick.winner)} took it, ${v.last_trick.points} pts): `,
        v.last_trick.plays.map((p) => [h("span", {}, `${seatName(g, p.seat)} `), chip(p.card, "small"), " "]))
      : h("div", { class: "last-trick muted" }, " ");

    const handCards = (v.hand ?? []) as string[];
    const promptBox = h("div", { class: "prompt card-panel", id: "prompt" });
    if (ctx.legal() && prompt !== "none" && prompt !== "play_card") {
      const moves = choicesOf(ctx.legal()!.legal);
      const title = prompt === "bid" ? "Your call: bid or pass (LH-5)" : prompt === "decide" ? "Accept or reject the highest bid (LH-6)" : "Name trumps (LH-7)";
      promptBox.append(h("h2", {}, title), choiceButtons(moves, (m) => {
        const t = moveText(m);
        return t.charAt(0).toUpperCase() + t.slice(1);
      }));
    } else if (prompt === "play_card") {
      promptBox.append(h("h2", {}, "Play a card"), h("p", { class: "muted" },
        follow ? `Follow ${follow} if you can (LH-9); a Blank only when you cannot.` : "Lead any card but a Blank (LH-8)."));
      if (((v.hand ?? []) as string[]).includes("blank")) {
        promptBox.append(h("p", { class: "rule", id: "blank-rule" },
          "Blanks: never win a trick (LH-10), and the Lost Heir and the Wrong Boy score nothing in a trick with one (LH-11)."));
      }
    } else {
      promptBox.append(h("p", { class: "muted" }, g.status === "finished" ? finishedText(g) : mine === null ? "You are watching." : "Not your turn."));
    }

    const hand = mine !== null
      ? h("div", { class: "card-panel hand-panel" }, h("h2", {}, "Your hand"),
        handRow(handCards, playable, null, (code) => {
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
      info,
      h("div", { class: `felt ring-${n}`, id: "felt" }, panels, blankNote, lastTrick),
      promptBox, hand, allHands,
      lhScores(g, v));
  }

  function lhScores(g: Game, v: LostHeirView): HTMLElement {
    const sideName = (i: number) => v.sides[i]?.seats.map((s) => seatName(g, s)).join(" + ") ?? `side ${i}`;
    return h("div", { class: "card-panel scores", id: "scores" }, h("h2", {}, "Scores"),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", {}, "Round"), h("th", {}, "Trumps"), v.sides.map((_, i) => h("th", {}, sideName(i))))),
        h("tbody", {},
          v.score_sheet.map((r) => h("tr", {}, h("td", {}, String(r.round)), h("td", {}, cityName(r.trumps)),
            r.round_scores.map((score, i) => h("td", {}, `${score >= 0 ? "+" : ""}${score} (${r.tricks[i] ?? 0} tr.) = ${r.totals[i] ?? ""}`)))),
          h("tr", { class: "current" }, h("td", {}, `${v.round} (now)`), h("td", {}, v.trumps ? cityName(v.trumps) : "–"),
            v.sides.map((s) => h("td", {}, `${s.tricks} tricks, ${s.points} pts`)))),
        h("tfoot", {}, h("tr", {}, h("th", {}, "Total"), h("td", {}), v.sides.map((s) => h("th", {}, String(s.score)))))));
  }

  // ---------------------------------------------------------------- Cancellation Hearts

  function heartsTable(g: Game, v: HeartsView, mine: number | null): HTMLElement {
    const n = v.config.players;
    const prompt = ctx.legal()?.legal.prompt ?? "none";
    const playable = prompt === "play" ? new Set((ctx.legal()!.legal as Schemas["CancellationHeartsLegalPlay"]).cards as string[]) : null;
    const trick = v.trick;
    const bySeat = new Map<number, HeartsPlay[]>();
    for (const p of trick?.plays ?? []) bySeat.set(p.seat, [...(bySeat.get(p.seat) ?? []), p]);
    const phase = v.phase.name;
    const panels = [...Array(n).keys()].map((s) => {
      const seat = g.seats[s]!;
      const cards = bySeat.get(s) ?? [];
      return seatPanel(g, seat, mine, [
        s === v.dealer ? h("span", { class: "pill dealer" }, "dealer") : null,
        h("span", {}, `${v.hand_sizes[s] ?? 0} cards`),
        h("span", {}, `${v.round_points[s] ?? 0} pts this round · total ${v.scores[s] ?? 0}`),
        phase === "passing" && v.still_to_pass.includes(s) ? h("span", { class: "call" }, "choosing a pass") : null,
        v.kitty.taken_by === s ? h("span", { class: "pill" }, "took the kitty") : null,
        trick?.winning === s ? h("span", { class: "pill winning" }, "winning") : null,
      ], h("div", { class: "trick-slot", "aria-label": `${seatName(g, s)} played` },
        cards.length ? cards.map((p) => chip(p.card, p.cancelled ? "played cancelled" : "played"))
          : h("span", { class: "empty-slot" }, trick && trick.leader === s && !trick.plays.length ? "leads" : "")));
    });
    const cancelledCount = (trick?.plays ?? []).filter((p) => p.cancelled).length;
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
      h("p", { class: "rule", id: "all-cancelled-rule" }, ruleLine));
    const trickInfo = h("div", { class: "trick-info", id: "trick-info" },
      trick
        ? [`Trick led by ${seatName(g, trick.leader)}`, trick.led_suit ? `, ${suitName(trick.led_suit)} led` : "",
          trick.circuits > 1 ? h("strong", { class: "extension" }, ` · extended: circuit ${trick.circuits} (CH-8)`) : "",
          cancelledCount ? ` · ${cancelledCount} cancelled (CH-7)` : ""]
        : " ",
      v.set_aside.length ? h("div", { class: "set-aside" }, "Set aside for the next trick (CH-9): ", v.set_aside.map((c) => chip(c, "small"))) : null);
    const lastTrick = v.last_trick
      ? h("div", { class: "last-trick muted" }, `Last trick${v.last_trick.winner !== null && v.last_trick.winner !== undefined ? ` (${seatName(g, v.last_trick.winner)} took it)` : ""}: `,
        v.last_trick.plays.map((p) => [h("span", {}, `${seatName(g, p.seat)} `), chip(p.card, p.cancelled ? "small cancelled" : "small"), " "]))
      : h("div", { class: "last-trick muted" }, " ");

    const promptBox = h("div", { class: "prompt card-panel", id: "prompt" });
    let pick: { count: number; from: Set<string> } | null = null;
    if (ctx.legal() && (prompt === "pass_cards" || prompt === "discard")) {
      const l = ctx.legal()!.legal as Schemas["CancellationHeartsLegalPassCards"] | Schemas["CancellationHeartsLegalDiscard"];
      pick = { count: l.count, from: new Set(l.from as string[]) };
      const cards = pickedCards();
      const verb = prompt === "pass_cards" ? `Pass ${l.count} cards ${v.pass_direction} (CH-3)` : `Discard ${l.count} cards face down after taking the kitty (CH-10)`;
      promptBox.append(h("h2", {}, verb),
        h("p", {}, `Choose ${l.count} from your hand: `, cards.length ? cards.map((c) => chip(c, "small")) : h("span", { class: "muted" }, "none chosen")),
        h("button", { type: "button", id: "confirm-pick", "data-key": "confirm-pick", disabled: cards.length !== l.count,
          onclick: () => {
            // Each chosen card as the legal set types it (a card held twice is listed once).
            const typed = cards.map((code) => l.from.find((c) => c === code)).filter((c) => c !== undefined);
            if (typed.length !== l.count) return;
            void ctx.send(prompt === "pass_cards" ? { type: "pass_cards", cards: typed } : { type: "discard", cards: typed });
          } },
        prompt === "pass_cards" ? `Pass these ${l.count}` : `Discard these ${l.count}`));
    } else if (ctx.legal() && prompt === "moon") {
      promptBox.append(h("h2", {}, "You shot the moon! Choose (CH-12)"), choiceButtons(choicesOf(ctx.legal()!.legal), (m) => {
        const t = moveText(m);
        return t.replace("shoots the moon: ", "").replace(/^./, (c) => c.toUpperCase());
      }));
    } else if (prompt === "play") {
      promptBox.append(h("h2", {}, "Play a card"), h("p", { class: "muted" },
        trick && trick.plays.length ? "Follow the suit led if you can (CH-5)." : "Lead a card; hearts only once broken (CH-6)."));
    } else {
      promptBox.append(h("p", { class: "muted" }, g.status === "finished" ? finishedText(g) : mine === null ? "You are watching." : "Not your turn."));
    }

    const hand = mine !== null
      ? h("div", { class: "card-panel hand-panel" }, h("h2", {}, "Your hand"),
        handRow((v.hand ?? []) as string[], playable, pick, (code) => {
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
      info,
      h("div", { class: `felt ring-${n}`, id: "felt" }, panels, h("div", { class: "felt-center" }, trickInfo, lastTrick)),
      promptBox, hand, mineExtra, secrets,
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
