// The renderers of both kinds' tables, shared by the live table (table.ts)
// and the replay (replay.ts): the felt with a plate per seat and each
// seat's cards of the trick in front of it, the prompt in plain words, my
// hand (a fan, played by pointer or keyboard), the round's facts, the
// round's tricks and the scores with their chart. They draw exactly the
// view and the legal moves they are given; moments (a held trick, a pass in
// flight, a round's summary) come from the page through `Ctx`.
import type { Game, HeartsView, LegalMoves, LostHeirView, Move, Schemas } from "./api";
import { cityName, face, sorted } from "./cards";
import { h, type Children } from "./dom";
import { backUrl, chip, faceUrl } from "./faces";
import { chSeries, lhSeries, scoreChart, sideNames } from "./summary";
import type { DoneTrick } from "./tricks";
import { botTag, listNames, moveText, plural, seatName, suitName } from "./words";

type Seat = Schemas["SeatResource"];
type LHCall = Schemas["LostHeirCall"] | null;
type Play = { seat: number; card: string; cancelled?: boolean };

/** A completed trick kept on the felt for a moment, then gathered to its winner. */
export interface Hold {
  plays: Play[];
  winner: number | null;
  gathering: boolean;
}

/** Cards on their way from one seat to another (a pass, the kitty), face down. */
export interface Flight {
  /** [from, to] seats; `from` null: the kitty in the middle of the felt. */
  moves: [number | null, number][];
  count: number;
  moving: boolean;
  what: string;
}

/** What the table's renderers need from their page. */
export interface Ctx {
  legal(): LegalMoves | null;
  selected: Set<string>;
  send(move: Move): Promise<void>;
  render(): void;
  /** The completed trick still shown, if any. */
  hold?(): Hold | null;
  /** Whether the "Last trick" panel is open, and how to toggle it (the live table). */
  lastOpen?(): boolean;
  toggleLast?(): void;
  /** The refusal line, shown under the prompt. */
  problem?(): HTMLElement | null;
  /** Shown over the felt: the round's summary. */
  overlay?(): Children;
  /** Cards in flight over the felt. */
  flight?(): Flight | null;
  /** The round's completed tricks rebuilt from the log (tricks.ts); null when unknown. */
  tricks?(): DoneTrick[] | null;
  /** Whether the list of the round's tricks is open. */
  tricksOpen?: { open: boolean };
  /** Where the keyboard is in my hand (an index in the sorted hand). */
  cursor?: { index: number };
  /** Why the card last tried cannot be played, shown under the hand. */
  why?: { text: string };
  /** Cards just received (a pass): marked a moment in my hand. */
  fresh?(): Set<string>;
  /** Cards that just cancelled each other on the felt (CH-7), and the note about them. */
  flash?(): { cards: Set<string>; note: string } | null;
}

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
      h("div", { class: "seat-name" },
        acting ? [h("span", { class: "to-act", "aria-hidden": "true" }, "▶ "), h("span", { class: "sr-only" }, "to act: ")] : null,
        h("span", { class: "who-name" }, seatName(g, seat.seat))),
      tags.length ? h("div", { class: "tags" }, tags.join(", ")) : null,
      h("div", { class: "seat-info" }, lines));
  }

  /** Face-down cards crossing the felt: a pass (seat to seat) or the kitty (middle to its taker). */
  function flightLayer(base: number, n: number): Children {
    const f = ctx.flight?.() ?? null;
    if (!f) return null;
    return f.moves.map(([from, to]) => {
      const start = from === null ? "middle" : `spot-${place(from, base, n)}`;
      const where = f.moving ? `pos-${place(to, base, n)} moving` : start;
      return h("div", { class: `flight ${where}`, "aria-hidden": "true", "data-to": to },
        [...Array(Math.min(f.count, 4)).keys()].map(() => h("img", { src: backUrl(), alt: "", width: "60", height: "84" })));
    });
  }

  /** The felt: a plate per seat around it, each seat's cards of the trick in front of it. */
  function feltTable(g: Game, n: number, mine: number | null, plates: (pos: number, s: number) => HTMLElement,
    trick: Play[], leader: number | null, centre: Children, last: { plays: Play[]; title: string } | null, extra: Children = null): HTMLElement {
    const base = mine ?? 0;
    const hold = ctx.hold?.() ?? null;
    const shown = hold ? hold.plays : trick;
    const flash = ctx.flash?.() ?? null;
    const bySeat = new Map<number, Play[]>();
    for (const p of shown) bySeat.set(p.seat, [...(bySeat.get(p.seat) ?? []), p]);
    const seats = [...Array(n).keys()];
    const slots = seats.map((s) => {
      const pos = place(s, base, n);
      const cards = bySeat.get(s) ?? [];
      const gather = hold?.gathering && hold.winner !== null ? ` pos-${place(hold.winner, base, n)} gather` : ` spot-${pos}`;
      return h("div", { class: `trick-slot${gather}${hold ? " held" : ""}`, "data-seat": s },
        cards.map((p) => chip(p.card, `played${p.cancelled ? " cancelled" : ""}${p.cancelled && flash?.cards.has(p.card) ? " just-cancelled" : ""}`, seatName(g, s))),
        !cards.length && !hold && leader === s && !trick.length && g.status === "in_progress" ? h("span", { class: "empty-slot" }, "to lead") : null);
    });
    const open = ctx.lastOpen?.() ?? false;
    const toggle = last && ctx.toggleLast
      ? h("button", { type: "button", class: "last-toggle", id: "last-trick-toggle", "data-key": "last-trick-toggle", "aria-pressed": open ? "true" : "false", onclick: () => ctx.toggleLast?.() },
        open ? "Hide last trick" : "Last trick")
      : null;
    const panel = last && (open || !ctx.toggleLast)
      ? h("div", { class: `last-trick${ctx.toggleLast ? " overlay" : ""}`, id: "last-trick" }, h("div", { class: "last-title" }, last.title),
        h("div", { class: "last-cards" }, last.plays.map((p) => h("div", { class: "last-play" }, chip(p.card, p.cancelled ? "small cancelled" : "small", seatName(g, p.seat)), h("span", { "aria-hidden": "true" }, seatName(g, p.seat))))),
        ctx.toggleLast ? h("button", { type: "button", class: "last-toggle", id: "last-trick-close", "data-key": "last-trick-close", onclick: () => ctx.toggleLast?.() }, "Close") : null)
      : null;
    const note = hold
      ? h("div", { class: "trumps" }, hold.winner !== null ? `${seatName(g, hold.winner)} takes the trick` : "Nobody wins it: the trick is set aside")
      : [centre, flash ? h("div", { class: "extension", id: "cancel-note" }, flash.note) : null];
    const felt = h("section", { class: `felt ring-${n}`, id: "felt", "aria-label": "the table" },
      seats.map((s) => plates(place(s, base, n), s)),
      slots,
      // The last trick can be looked at while a trick is held too.
      h("div", { class: "felt-note", id: "trick-info" }, note, toggle),
      extra,
      flightLayer(base, n),
      ctx.toggleLast ? panel : null,
      ctx.overlay?.() ?? null);
    // Without a toggle (the replay) the last trick is shown under the felt.
    return ctx.toggleLast ? felt : h("div", { class: "felt-box" }, felt, panel);
  }

  /** Why a card in my hand cannot be played now. */
  function whyNot(card: string, follow: string | null, leading: boolean, rule: (card: string) => string | null): string {
    return rule(card) ?? (follow && !leading ? `You must follow ${follow}` : "Not playable now");
  }

  function cardButton(card: string, o: { enabled: boolean; pressed: boolean | null; index: number; extra: string; title: string; why: string | null; tab: boolean; onClick: () => void }): HTMLButtonElement {
    const f = face(card);
    const whyId = o.why ? `why-${o.index}` : null;
    return h("button", {
      type: "button", class: `card ${f.suit}${o.pressed ? " picked" : ""}${o.extra}`, "aria-label": f.name, title: o.title,
      "aria-disabled": o.enabled ? null : "true", "aria-pressed": o.pressed === null ? null : o.pressed ? "true" : "false",
      "aria-describedby": whyId, tabindex: o.tab ? "0" : "-1",
      "data-card": card, "data-key": `card-${card}-${o.index}`, "data-index": o.index, onclick: o.onClick,
      onfocus: () => {
        if (ctx.cursor) ctx.cursor.index = o.index;
        const line = document.getElementById("why");
        if (line) line.textContent = o.why ? `${f.name}: ${o.why}` : "";
      },
    }, h("img", { src: faceUrl(card), alt: "", draggable: "false", width: "60", height: "84" }),
    whyId ? h("span", { id: whyId, hidden: true }, o.why) : null);
  }

  /** Arrow keys (and Home, End) move along the hand; the hand is one tab stop. */
  function handKeys(e: Event): void {
    const k = e as KeyboardEvent;
    const hand = k.currentTarget as HTMLElement;
    const cards = [...hand.querySelectorAll<HTMLButtonElement>("button.card")];
    const at = cards.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const to = k.key === "ArrowRight" || k.key === "ArrowDown" ? Math.min(cards.length - 1, at + 1)
      : k.key === "ArrowLeft" || k.key === "ArrowUp" ? Math.max(0, at - 1)
      : k.key === "Home" ? 0 : k.key === "End" ? cards.length - 1 : null;
    if (to === null) return;
    k.preventDefault();
    cards.forEach((c, i) => c.setAttribute("tabindex", i === to ? "0" : "-1"));
    cards[to]!.focus();
  }

  /**
   * My hand, sorted by suit and fanned (overlapping, every index visible);
   * more than 12 cards make two rows, so a phone shows it whole. Every card
   * is a button reached by the arrow keys; a card that cannot be played now
   * is aria-disabled and says why (pressed, focused or hovered); playable
   * cards stand out while it is my turn to play, the others stay readable.
   */
  function handRow(cards: readonly string[], play: { cards: Set<string>; why: (card: string) => string } | null,
    pick: { count: number; from: Set<string> } | null, onPlay: (c: string) => void, idleWhy: string): HTMLElement {
    const all = sorted(cards);
    const seen = new Map<string, number>();
    const fresh = ctx.fresh?.() ?? new Set<string>();
    const cursor = ctx.cursor ?? { index: 0 };
    const enabledAt = all.map((card) => (pick ? pick.from.has(card) : play?.cards.has(card) ?? false));
    // The tab stop: where the keyboard was, else the first card that can be played.
    const firstEnabled = Math.max(0, enabledAt.indexOf(true));
    const tabAt = cursor.index > 0 ? Math.min(cursor.index, all.length) - 1 : firstEnabled;
    const buttons = all.map((card, i) => {
      const n = (seen.get(card) ?? 0) + 1;
      seen.set(card, n);
      const key = n > 1 ? `${card}#${n}` : card;
      const name = face(card).name;
      const extraFresh = fresh.has(card) ? " fresh" : "";
      const tryWhy = (why: string) => () => { if (ctx.why) { ctx.why.text = `${name}: ${why}`; ctx.render(); } };
      if (pick) {
        const on = selected.has(key);
        const can = pick.from.has(card) && (on || selected.size < pick.count);
        const why = can ? null : pick.from.has(card) ? `You have chosen ${pick.count} already: press one of them to put it back` : "Not one you may choose";
        return cardButton(card, { enabled: can, pressed: on, index: i + 1, extra: extraFresh, title: on ? `${name}: chosen (press again to put it back)` : why ? `${name}: ${why}` : name, why, tab: i === tabAt,
          onClick: can ? () => { if (on) selected.delete(key); else selected.add(key); if (ctx.why) ctx.why.text = ""; ctx.render(); } : tryWhy(why ?? "") });
      }
      const ok = play?.cards.has(card) ?? false;
      const why = ok ? null : play ? play.why(card) : idleWhy;
      return cardButton(card, { enabled: ok, pressed: null, index: i + 1, extra: `${ok ? " playable" : ""}${extraFresh}`, title: why ? `${name}: ${why}` : name, why, tab: i === tabAt,
        onClick: ok ? () => onPlay(card) : tryWhy(why ?? "") });
    });
    const rows = buttons.length > 12 ? [buttons.slice(0, Math.ceil(buttons.length / 2)), buttons.slice(Math.ceil(buttons.length / 2))] : [buttons];
    return h("div", { class: "hand-wrap" },
      h("div", { class: `hand${play ? " to-play" : ""}${pick ? " to-pick" : ""}`, id: "hand", role: "group", "aria-label": `your hand, ${plural(cards.length, "card")}: arrow keys move, Enter plays`, onkeydown: handKeys },
        cards.length === 0 ? h("span", { class: "muted" }, "no cards") : null,
        buttons.length ? rows.map((row) => h("div", { class: "hand-row" }, row)) : null),
      h("p", { class: "why", id: "why", "aria-live": "polite" }, ctx.why?.text ?? ""));
  }

  function pickedCards(): string[] {
    return [...selected].map((k) => k.split("#")[0]!);
  }

  function choiceButtons(moves: Move[], text: (m: Move) => string): HTMLElement {
    return h("div", { class: "choices", role: "group", "aria-label": "your choices" },
      moves.map((m, i) => h("button", { type: "button", class: "choice", "data-key": `choice-${i}`, onclick: () => void ctx.send(m) }, text(m))));
  }

  /** Many bids (up to 21 with two players): Pass, a list of the bids, and Bid; one row on a phone. */
  function bidPicker(moves: Move[]): HTMLElement {
    const bids = moves.filter((m): m is Extract<Move, { type: "bid" }> => m.type === "bid");
    const pass = moves.find((m) => m.type === "pass");
    const pick = h("select", { id: "bid-points", "aria-label": "points to bid", "data-key": "bid-points" },
      bids.map((m) => h("option", { value: String(m.points) }, String(m.points)))) as HTMLSelectElement;
    return h("div", { class: "choices", role: "group", "aria-label": "your choices" },
      pass ? h("button", { type: "button", class: "choice", "data-key": "choice-pass", onclick: () => void ctx.send(pass) }, "Pass") : null,
      pick,
      h("button", { type: "button", class: "choice primary", id: "bid-button", "data-key": "choice-bid", onclick: () => {
        const m = bids.find((b) => String(b.points) === pick.value);
        if (m) void ctx.send(m);
      } }, "Bid"));
  }

  /** A prompt: plain words, the rulings behind them as a small detail. */
  function ask(title: string, words: string, rulings: string): HTMLElement[] {
    const heading = h("h2", {}, title, " ", h("span", { class: "rule-ids", title: "the rulings behind this (see the rules page)" }, rulings));
    return words ? [heading, h("p", { class: "ask" }, words)] : [heading];
  }

  function idle(g: Game, mine: number | null): HTMLElement {
    const waiting = g.to_act.map((s) => seatName(g, s)).join(", ");
    return h("p", { class: "muted ask" }, g.status === "finished" ? finishedText(g)
      : mine === null ? `You are watching${waiting ? `: ${waiting} to act` : ""}.` : `Waiting for ${waiting || "the table"}.`);
  }

  /** Every hand, for the replay and the finished game (omniscient views); nothing when every hand is empty. */
  function everyHand(g: Game, hands: readonly (readonly string[])[] | null | undefined, kitty: readonly string[] = []): HTMLElement | null {
    if (!hands || hands.every((cards) => cards.length === 0)) return null;
    return h("div", { class: "card-panel", id: "every-hand" }, h("h2", {}, "Every hand"),
      hands.map((cards, s) => h("div", { class: "hand-line" }, h("span", {}, `${seatName(g, s)}: `),
        cards.length ? sorted(cards as string[]).map((c) => chip(c, "small")) : h("span", { class: "muted" }, "no cards left"))),
      kitty.length ? h("div", { class: "hand-line" }, "Kitty: ", kitty.map((c) => chip(c, "small"))) : null);
  }

  /** The round's tricks so far, newest last: who led, the cards, who took it. */
  function tricksPanel(g: Game, last: { plays: Play[]; winner: number | null } | null, points: (t: DoneTrick) => string): HTMLElement | null {
    const tricks = ctx.tricks?.() ?? null;
    const list: DoneTrick[] = tricks ?? (last ? [{ number: 0, leader: last.plays[0]?.seat ?? 0, plays: last.plays, winner: last.winner }] : []);
    if (!list.length || !ctx.tricksOpen) return null;
    const state = ctx.tricksOpen;
    const el = h("details", { class: "card-panel tricks", id: "round-tricks", open: state.open },
      h("summary", {}, `Tricks this round (${list.length})`),
      tricks ? null : h("p", { class: "muted" }, "Only the last trick is known here."),
      h("ol", { class: "trick-list" }, list.map((t) => h("li", { "data-trick": t.number },
        h("span", { class: "trick-head" }, `${t.number ? `Trick ${t.number}: ` : ""}${t.winner !== null ? `${seatName(g, t.winner)} took it${points(t)}` : "set aside (nobody won it)"}`),
        h("span", { class: "trick-cards" }, t.plays.map((p) => h("span", { class: "trick-play" }, chip(p.card, p.cancelled ? "tiny cancelled" : "tiny", seatName(g, p.seat)), h("span", { "aria-hidden": "true" }, seatName(g, p.seat)))))))));
    el.addEventListener("toggle", () => { state.open = el.open; });
    return el;
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
    const over = g.status === "finished";
    const plate = (pos: number, s: number) => {
      const seat = g.seats[s]!;
      const side = sideOf(s);
      const partner = v.partnerships && side ? side.seats.filter((x) => x !== s).map((x) => seatName(g, x)).join(", ") : "";
      const call = callText(v.calls[s] ?? null);
      return seatPlate(g, seat, mine, pos, [
        s === v.dealer && !over ? h("span", { class: "pill dealer", title: "dealer" }, "dealer") : null,
        over ? null : h("span", { class: "count" }, plural(v.hand_sizes[s] ?? 0, "card")),
        call && !over ? h("span", { class: "pill call" }, call) : null,
        side && !v.partnerships ? h("span", { class: "points" }, over ? `${side.score} pts` : `${side.tricks} tr · ${side.points} pts`) : null,
        partner ? h("span", { class: "partner" }, `partner: ${partner}`) : null,
      ], v.partnerships && side ? ` team-${side.side}` : "");
    };
    const lastHere = v.last_trick && v.last_trick.round === v.round ? v.last_trick : null;
    const last = lastHere ? { plays: lastHere.plays as Play[], title: `Last trick: ${seatName(g, lastHere.winner)} took it (${plural(lastHere.points, "pt")})` } : null;
    const blank = v.trick.plays.some((p) => p.card === "blank");
    const centre = [
      h("div", { id: "trumps", class: "trumps" }, trumps ? `Trumps: ${trumps}` : over ? "" : "Trumps not named yet"),
      follow && v.trick.plays.length ? h("div", {}, `Follow: ${v.suit_to_follow === "trumps" ? "trumps" : follow}`) : null,
      blank ? h("div", { id: "blank-played", class: "extension" }, "A Blank is in: the Lost Heir and the Wrong Boy score nothing") : null,
    ];
    // A lead is awaited only once trumps are named (the bidding comes first).
    const felt = feltTable(g, n, mine, plate, v.trick.plays as Play[], over || !v.trumps ? null : v.trick.leader, centre, last);

    const contract = v.contract
      ? `${sideNames(g, v, v.contract.side)} must take ${v.contract.points} points`
      : null;
    const decision = v.decision === "accepted" ? "the dealer accepted the highest bid"
      : v.decision === "rejected" ? "the dealer rejected the bid: the dealer's side scores nothing positive this round"
      : v.decision === "all_passed" ? "everyone passed: no contract" : null;
    const info = over ? null : h("div", { class: "table-info card-panel", id: "round-info" },
      h("span", {}, `Round ${v.round}`), " · ",
      h("span", {}, `dealer ${seatName(g, v.dealer)}`), " · ",
      h("span", {}, trumps ? `trumps: ${trumps}, with the Lost Heir and the Wrong Boy` : "trumps not named yet"),
      v.highest_bid ? [" · ", h("span", {}, `highest bid ${v.highest_bid.points} by ${seatName(g, v.highest_bid.seat)}`)] : null,
      decision ? [" · ", h("span", { id: "decision" }, decision)] : null,
      contract ? [" · ", h("span", { id: "contract" }, `contract: ${contract}`)] : null,
      ` · first to ${v.target} wins`,
      (v.hand ?? []).includes("blank")
        ? h("p", { class: "rule", id: "blank-rule" }, "Blanks never win a trick, and the Lost Heir and the Wrong Boy score nothing in a trick with one. ", h("span", { class: "rule-ids" }, "LH-10, LH-11"))
        : null);

    const handCards = (v.hand ?? []) as string[];
    const promptBox = h("div", { class: "prompt", id: "prompt" });
    const leading = v.trick.plays.length === 0;
    if (legal && prompt !== "none" && prompt !== "play_card") {
      const moves = choicesOf(legal.legal);
      const [title, words, rulings] = prompt === "bid"
        ? ["Your call", v.highest_bid ? `Bid more than ${v.highest_bid.points} points for your side this round, or pass.` : "Bid the points your side will take this round, or pass.", "LH-5"]
        : prompt === "decide" ? ["Accept or reject", `${seatName(g, v.highest_bid?.seat ?? 0)} bid ${v.highest_bid?.points ?? "?"}. Accept: they name trumps and your side must take that many points. Reject: you name trumps but your side scores nothing positive.`, "LH-6"]
        : ["Name trumps", "The Lost Heir and the Wrong Boy join that city.", "LH-7"];
      promptBox.append(...ask(title, words, rulings), prompt === "bid" && moves.length > 9 ? bidPicker(moves) : choiceButtons(moves, choiceText));
    } else if (prompt === "play_card") {
      const blankNote = handCards.includes("blank") ? " A Blank only when you cannot follow." : "";
      const words = leading ? "Lead any card except a Blank." : `Follow ${follow} if you can, otherwise any card.${blankNote}`;
      promptBox.append(...ask("Your turn: play a card", words, leading ? "LH-8" : "LH-9"));
    } else {
      promptBox.append(idle(g, mine));
    }
    const rule = (card: string) => card === "blank" ? (leading ? "A Blank cannot be led" : "A Blank only when you cannot follow") : null;
    const play = prompt === "play_card"
      ? { cards: new Set((legal!.legal as Schemas["LostHeirLegalPlayCard"]).cards as string[]), why: (c: string) => whyNot(c, follow, leading, rule) }
      : null;
    const idleWhy = prompt === "none" ? "Not your turn" : "First answer the question above";
    const hand = mine !== null && !over
      ? h("div", { class: "hand-panel", id: "hand-panel" },
        handRow(handCards, play, null, (code) => {
          // The card as the legal-move set types it (only a listed card is playable).
          const card = (ctx.legal()?.legal as Schemas["LostHeirLegalPlayCard"] | undefined)?.cards?.find((c) => c === code);
          if (card) void ctx.send({ type: "play", card });
        }, idleWhy))
      : null;

    const lastTrick = lastHere ? { plays: lastHere.plays as Play[], winner: lastHere.winner } : null;
    return h("div", { class: "felt-wrap" },
      felt, promptBox, ctx.problem?.() ?? null, hand,
      info, tricksPanel(g, lastTrick, (t) => (t.points !== undefined ? ` (${plural(t.points, "pt")})` : "")),
      everyHand(g, v.hands),
      lhScores(g, v));
  }

  function lhScores(g: Game, v: LostHeirView): HTMLElement {
    const playing = g.status !== "finished" && v.sides.some((s) => s.tricks > 0 || s.points !== 0);
    return h("div", { class: "card-panel scores", id: "scores" }, h("h2", {}, `Scores (first to ${v.target} wins)`),
      h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "score sheet" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), h("th", { scope: "col" }, "Trumps"), v.sides.map((_, i) => h("th", { scope: "col" }, sideNames(g, v, i))))),
        h("tbody", {},
          v.score_sheet.map((r) => h("tr", {}, h("td", {}, String(r.round)), h("td", {}, cityName(r.trumps)),
            r.round_scores.map((score, i) => h("td", {}, `${score >= 0 ? "+" : ""}${score} (${plural(r.tricks[i] ?? 0, "trick")}) = ${r.totals[i] ?? ""}`)))),
          // This round so far: only while it is being played.
          playing ? h("tr", { class: "current" }, h("td", {}, `${v.round} (now)`), h("td", {}, v.trumps ? cityName(v.trumps) : "–"),
            v.sides.map((s) => h("td", {}, `${plural(s.tricks, "trick")}, ${plural(s.points, "pt")}`))) : null),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"), h("td", {}), v.sides.map((s) => h("th", {}, String(s.score))))))),
      // Once over, the end screen carries the chart.
      v.score_sheet.length && g.status !== "finished" ? scoreChart(lhSeries(g, v), v.target, false) : null);
  }

  // ---------------------------------------------------------------- Cancellation Hearts

  function heartsTable(g: Game, v: HeartsView, mine: number | null): HTMLElement {
    const n = v.config.players;
    const legal = ctx.legal();
    const prompt = legal?.legal.prompt ?? "none";
    const trick = v.trick;
    const phase = v.phase.name;
    const over = g.status === "finished";
    const plate = (pos: number, s: number) => seatPlate(g, g.seats[s]!, mine, pos, [
      s === v.dealer && !over ? h("span", { class: "pill dealer", title: "dealer" }, "dealer") : null,
      over ? null : h("span", { class: "count" }, plural(v.hand_sizes[s] ?? 0, "card")),
      h("span", { class: "points", title: "points this round, total" }, over ? `${v.scores[s] ?? 0} pts` : `${v.round_points[s] ?? 0} pts · total ${v.scores[s] ?? 0}`),
      phase === "passing" && v.still_to_pass.includes(s) ? h("span", { class: "pill call" }, "passing") : null,
      v.kitty.taken_by === s && !over ? h("span", { class: "pill" }, "kitty") : null,
      trick?.winning === s && !over ? h("span", { class: "pill winning" }, "winning") : null,
    ]);
    // A last trick of the previous round is not this round's (nothing taken or set aside yet).
    const thisRound = v.taken.some((t) => t.length > 0) || v.set_aside.length > 0;
    const last = v.last_trick && thisRound
      ? { plays: v.last_trick.plays as Play[], title: `Last trick: ${v.last_trick.winner !== null && v.last_trick.winner !== undefined ? `${seatName(g, v.last_trick.winner)} took it` : "set aside"}` }
      : null;
    const cancelledCount = (trick?.plays ?? []).filter((p) => p.cancelled).length;
    const centre = [
      trick?.led_suit ? h("div", { class: "trumps" }, `${suitName(trick.led_suit)} led`) : null,
      trick && trick.circuits > 1 ? h("div", { class: "extension", id: "extension-note" }, `No card of the suit led stands: round again (circuit ${trick.circuits})`) : null,
      cancelledCount && !ctx.flash?.() ? h("div", {}, `${cancelledCount} cancelled`) : null,
      v.set_aside.length ? h("div", { class: "set-aside" }, `${plural(v.set_aside.length, "card")} set aside for the next winner`) : null,
      !trick && phase === "passing" ? h("div", {}, v.pass_direction === "none" ? "no pass this round" : `passing ${v.pass_direction}`) : null,
    ];
    // The kitty lies face down in the middle until the first trick's winner takes it (CH-10).
    const kitty = v.kitty.size > 0 && (v.kitty.taken_by === null || v.kitty.taken_by === undefined) && !over && phase !== "over"
      ? h("div", { class: "kitty-pile", id: "kitty-pile", role: "img", "aria-label": `the kitty: ${plural(v.kitty.size, "card")} face down` },
        [...Array(Math.min(v.kitty.size, 4)).keys()].map(() => h("img", { src: backUrl(), alt: "", width: "60", height: "84" })),
        h("span", { class: "kitty-count", "aria-hidden": "true" }, `kitty ${v.kitty.size}`))
      : null;
    const felt = feltTable(g, n, mine, plate, (trick?.plays ?? []) as Play[], over || phase !== "playing" ? null : trick?.leader ?? null, [centre, kitty], last);

    const ruleLine = v.config.all_cancelled === "extend"
      ? "When every card of the suit led is cancelled, everyone plays another card to the same trick."
      : "When every card of the suit led is cancelled, the trick is set aside for the next trick's winner.";
    const dirText = v.pass_direction === "none" ? "no pass this round" : `pass three cards ${v.pass_direction}`;
    const info = over ? null : h("div", { class: "table-info card-panel", id: "round-info" },
      h("span", {}, `Round ${v.round + 1}`), " · ", h("span", {}, `dealer ${seatName(g, v.dealer)}`), " · ",
      h("span", { id: "pass-direction" }, dirText), " · ",
      h("span", { id: "phase" }, phaseText(g, v)), " · ",
      h("span", { id: "kitty" }, v.kitty.taken_by !== null && v.kitty.taken_by !== undefined
        ? `kitty of ${v.kitty.size} taken by ${seatName(g, v.kitty.taken_by)}` : v.kitty.size ? `kitty: ${plural(v.kitty.size, "card")} face down` : "no kitty"), " · ",
      h("span", {}, v.hearts_broken ? "hearts broken" : "hearts not broken yet"),
      v.set_aside.length ? h("div", { class: "set-aside" }, "Set aside for the next trick's winner: ", v.set_aside.map((c) => chip(c, "small"))) : null,
      h("p", { class: "rule", id: "all-cancelled-rule" }, ruleLine, " ", h("span", { class: "rule-ids" }, v.config.all_cancelled === "extend" ? "CH-8" : "CH-9")));

    const promptBox = h("div", { class: "prompt", id: "prompt" });
    let pick: { count: number; from: Set<string> } | null = null;
    const firstTrick = v.taken.every((t) => t.length === 0) && v.set_aside.length === 0;
    const leading = !trick || trick.plays.length === 0;
    const led = trick?.led_suit ? suitName(trick.led_suit).split(" ")[0]! : null;
    if (legal && (prompt === "pass_cards" || prompt === "discard")) {
      const l = legal.legal as Schemas["CancellationHeartsLegalPassCards"] | Schemas["CancellationHeartsLegalDiscard"];
      pick = { count: l.count, from: new Set(l.from as string[]) };
      const cards = pickedCards();
      const receiver = prompt === "pass_cards" && mine !== null ? passTarget(mine, n, v.pass_direction) : null;
      const [title, words, rulings] = prompt === "pass_cards"
        ? [`Pass ${l.count} cards ${v.pass_direction}`, `Choose ${l.count} cards to give ${receiver !== null ? seatName(g, receiver) : "away"}, then pass them.`, "CH-3"]
        : [`Discard ${l.count} cards`, `You took the kitty: choose ${l.count} cards to put face down. They count for you at the end of the round.`, "CH-10"];
      promptBox.append(...ask(title, words, rulings),
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
      promptBox.append(...ask("You shot the moon!", "You took every heart and both queens of spades. Choose how the 26 points count.", "CH-12"), choiceButtons(choicesOf(legal.legal), choiceText));
    } else if (prompt === "play") {
      const cards = (legal!.legal as Schemas["CancellationHeartsLegalPlay"]).cards as string[];
      const words = !leading ? `Follow ${led} if you can, otherwise any card${firstTrick ? " but a heart or the queen of spades (first trick)" : ""}.`
        : cards.length === 1 && cards[0] === "2C" ? "Lead the two of clubs."
        : v.hearts_broken ? "Lead any card." : "Lead any card but a heart: hearts are not broken yet.";
      promptBox.append(...ask("Your turn: play a card", words, leading ? "CH-4, CH-6" : "CH-5"));
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
    const idleWhy = prompt === "moon" ? "First choose how the moon counts" : "Not your turn";
    const hand = mine !== null && !over
      ? h("div", { class: "hand-panel", id: "hand-panel" },
        handRow((v.hand ?? []) as string[], play, pick, (code) => {
          const card = (ctx.legal()?.legal as Schemas["CancellationHeartsLegalPlay"] | undefined)?.cards?.find((c) => c === code);
          if (card) void ctx.send({ type: "play", card });
        }, idleWhy))
      : null;
    const mineExtra = mine !== null && !over && (v.passed?.length || v.received?.length || v.kitty.cards?.length || v.discards?.length)
      ? h("div", { class: "card-panel", id: "my-exchanges" },
        v.passed?.length ? h("div", { id: "passed" }, `You passed ${v.pass_direction}: `, v.passed.map((c) => chip(c, "small"))) : null,
        v.received?.length ? h("div", { id: "received" }, "You received: ", v.received.map((c) => chip(c, "small"))) : null,
        v.kitty.cards?.length ? h("div", { id: "kitty-cards" }, "The kitty you took: ", v.kitty.cards.map((c) => chip(c, "small"))) : null,
        v.discards?.length ? h("div", { id: "discards" }, "You discarded: ", v.discards.map((c) => chip(c, "small"))) : null)
      : null;
    const lastTrick = v.last_trick && thisRound ? { plays: v.last_trick.plays as Play[], winner: v.last_trick.winner ?? null } : null;
    return h("div", { class: `felt-wrap${(v.hand?.length ?? 0) > 12 ? " long-hand" : ""}` },
      felt, promptBox, ctx.problem?.() ?? null, hand,
      mineExtra, info, tricksPanel(g, lastTrick, () => ""),
      everyHand(g, v.secrets?.hands, v.secrets?.kitty ?? []),
      heartsScores(g, v));
  }

  function heartsScores(g: Game, v: HeartsView): HTMLElement {
    const n = v.config.players;
    const seats = [...Array(n).keys()];
    const playing = g.status !== "finished" && v.phase.name !== "over";
    return h("div", { class: "card-panel scores", id: "scores" }, h("h2", {}, `Scores (lowest wins; the game ends at ${v.config.target})`),
      h("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": "score sheet" }, h("table", {},
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Round"), seats.map((s) => h("th", { scope: "col" }, seatName(g, s))))),
        h("tbody", {},
          v.score_sheet.map((r) => h("tr", {}, h("td", {}, `${r.round + 1}${r.moon ? ` (moon: ${seatName(g, r.moon.shooter)})` : ""}`),
            seats.map((s) => h("td", {}, `+${r.points[s] ?? 0} = ${r.scores[s] ?? 0}`)))),
          playing ? h("tr", { class: "current" }, h("td", {}, `${v.round + 1} (now)`), seats.map((s) => h("td", {}, `+${v.round_points[s] ?? 0}`))) : null),
        h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, "Total"), seats.map((s) => h("th", {}, String(v.scores[s] ?? 0))))))),
      v.score_sheet.length && g.status !== "finished" ? scoreChart(chSeries(g, v), v.config.target, true) : null);
  }

  function phaseText(g: Game, v: HeartsView): string {
    const p = v.phase;
    switch (p.name) {
      case "passing": return `passing: waiting for ${listNames(v.still_to_pass.map((s) => seatName(g, s)))}`;
      case "playing": return "playing";
      case "discarding": return `${seatName(g, p.seat)} took the kitty and discards`;
      case "moon": return `${seatName(g, p.shooter)} shot the moon and chooses how it counts`;
      case "over": return "the game is over";
      default: return "";
    }
  }

  function finishedText(g: Game): string {
    const o = g.outcome;
    if (!o) return "The game is over.";
    const winners = listNames(o.winners.map((s) => seatName(g, s)));
    return `The game is over. Won by ${winners}. Scores: ${o.scores.map((s, i) => `${seatName(g, i)} ${s}`).join(", ")}.`;
  }

  return { lostHeirTable, heartsTable, finishedText };
}

/** Who a seat passes to (CH-3): left +1, right -1, across +floor(n/2). */
export function passTarget(seat: number, n: number, direction: string): number | null {
  const step = direction === "left" ? 1 : direction === "right" ? n - 1 : direction === "across" ? Math.floor(n / 2) : null;
  return step === null ? null : (seat + step) % n;
}

/** A choice's button: "Pass", "12", "Accept", "Toronto", "Subtract 26 from my score". */
function choiceText(m: Move): string {
  switch (m.type) {
    case "pass": return "Pass";
    case "bid": return String(m.points);
    case "accept": return "Accept";
    case "reject": return "Reject";
    case "name_trumps": return cityName(m.city);
    case "moon": return m.choice === "subtract_own" ? "Take 26 off my score" : "Add 26 to everyone else";
    default: return moveText(m);
  }
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

