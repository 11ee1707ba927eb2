// The replay viewer: a finished game stepped through every event of its log
// (get_events for the list, get_replay?seq= for the table after each), the
// full deal, the verification (verify_game) and a download of the record
// (export_record, as a Blob link: allowed by the page's CSP).
//
// "Go to a trick" shows the table just after that trick's last card: the
// whole trick on the felt, with who takes it (the record's tricks say so);
// stepping back from there walks through it card by card.
import { AnalysisPanel } from "./analysis";
import { api, problemText, type EventResource, type Game, type HeartsView, type Kind, type LostHeirView } from "./api";
import { ChallengeBox, otherPlayers } from "./challenge";
import { clear, h } from "./dom";
import { sorted } from "./cards";
import { chip } from "./faces";
import { markCancelled } from "./tricks";
import { views, type Hold } from "./views";
import { eventText, seatName } from "./words";

export function replay(main: HTMLElement, id: string): () => void {
  let closed = false;
  let objectUrl: string | null = null;
  const root = h("section", { class: "replay", id: "replay", "data-game": id }, h("p", { class: "muted" }, "Loading the replay…"));
  clear(main, root);
  /** The seq of each trick's last card, with the trick (held on the felt when shown). */
  const completes = new Map<number, Hold>();
  let held: Hold | null = null;
  let analysis: AnalysisPanel | null = null;
  const render = views({ legal: () => null, selected: new Set(), send: async () => {}, render: () => {}, hold: () => held });

  void (async () => {
    const { data: game, error } = await api.GET("/v1/games/{game_id}", { params: { path: { game_id: id } } });
    if (closed) return;
    if (!game) { clear(root, h("p", { class: "error", role: "alert" }, problemText(error))); return; }
    if (game.status !== "finished") {
      clear(root, h("p", {}, "This game is not finished yet: ", h("a", { href: `#/game/${id}` }, "open its table")));
      return;
    }
    const events: EventResource[] = [];
    let after = 0;
    for (;;) {
      const { data, error: e } = await api.GET("/v1/games/{game_id}/events", { params: { path: { game_id: id }, query: { after, limit: 500 } } });
      if (!data) { clear(root, h("p", { class: "error" }, problemText(e))); return; }
      events.push(...data.events);
      if (!data.events.length || events[events.length - 1]!.seq >= game.version) break;
      after = events[events.length - 1]!.seq;
    }
    if (closed) return;
    // Where each trick starts: the seq just before a lead (a play into an empty trick).
    const verify = h("div", { class: "verify", id: "verify" }, "Verifying…");
    const download = h("div", { id: "download" }, "Preparing the record…");
    const board = h("div", { id: "replay-board" });
    const counter = h("span", { id: "replay-at", "aria-live": "polite" });
    const select = h("select", { id: "replay-select", "aria-label": "go to event" },
      h("option", { value: "0" }, "0: before the first event"),
      events.map((e) => h("option", { value: String(e.seq) }, `${e.seq}: ${eventText(game, e)}`)));
    const trickSelect = h("select", { id: "trick-select", "aria-label": "go to a trick (shown with all its cards played)" }, h("option", { value: "" }, "go to a trick…"));
    const first = h("button", { type: "button", id: "replay-first" }, "|◀ Start");
    const back = h("button", { type: "button", id: "replay-back" }, "◀ Back");
    const forward = h("button", { type: "button", id: "replay-forward" }, "Forward ▶");
    const last = h("button", { type: "button", id: "replay-last" }, "End ▶|");
    const seqs = [0, ...events.map((e) => e.seq)];
    let index = seqs.length - 1;
    let token = 0;

    const show = async (i: number) => {
      index = Math.max(0, Math.min(seqs.length - 1, i));
      const seq = seqs[index]!;
      const mine = ++token;
      select.value = String(seq);
      counter.textContent = `event ${seq} of ${game.version}`;
      first.disabled = back.disabled = index === 0;
      forward.disabled = last.disabled = index === seqs.length - 1;
      const { data, error: e } = await api.GET("/v1/games/{game_id}/replay", { params: { path: { game_id: id }, query: { seq } } });
      if (closed || mine !== token) return;
      if (!data) { clear(board, h("p", { class: "error" }, problemText(e))); return; }
      const at: Game = { ...game, view: data.view, viewer: data.viewer, your_seat: data.your_seat ?? null, status: index === seqs.length - 1 ? "finished" : "in_progress", to_act: [] };
      board.dataset.seq = String(seq);
      held = completes.get(seq) ?? null;
      if (Object.keys(at.view).length === 0) clear(board, h("p", { class: "muted" }, "Before the deal."));
      else {
        clear(board, at.kind === "lost-heir"
          ? render.lostHeirTable(at, at.view as LostHeirView, null)
          : render.heartsTable(at, at.view as HeartsView, null));
        // A replay asks nothing of anyone.
        board.querySelector("#prompt")?.remove();
      }
      analysis?.onShow(seq, data.view);
    };
    first.addEventListener("click", () => void show(0));
    back.addEventListener("click", () => void show(index - 1));
    forward.addEventListener("click", () => void show(index + 1));
    last.addEventListener("click", () => void show(seqs.length - 1));
    select.addEventListener("change", () => void show(seqs.indexOf(Number(select.value))));
    trickSelect.addEventListener("change", () => { if (trickSelect.value) void show(seqs.indexOf(Number(trickSelect.value))); });
    root.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLSelectElement) return;
      if (e.key === "ArrowRight") void show(index + 1);
      if (e.key === "ArrowLeft") void show(index - 1);
    });

    analysis = new AnalysisPanel(game, {
      jump: (seq) => void show(seqs.indexOf(seq)),
      moveSeqs: events.filter((e) => e.type === "move").map((e) => e.seq),
      menu: select,
    });
    // Closed and under the board: a whole game's deals are long.
    const deal = h("details", { class: "card-panel", id: "full-deal" }, h("summary", {}, "The full deal of every round (from the record)"));
    clear(root,
      h("div", { class: "card-panel" },
        h("h1", {}, `Replay: ${game.kind === "lost-heir" ? "Lost Heir" : "Cancellation Hearts"}`),
        h("p", {}, render.finishedText(game)),
        playAgain(game),
        verify, download),
      h("div", { class: "card-panel replay-controls", role: "toolbar", "aria-label": "replay" },
        first, back, forward, last, counter, select, trickSelect),
      analysis.element,
      analysis.decisionElement,
      board,
      deal);
    await fromRecord(events, trickSelect, deal, game);
    await show(index);
    void analysis.start();

    const { data: report, error: ve } = await api.GET("/v1/games/{game_id}/verify", { params: { path: { game_id: id } } });
    if (closed) return;
    if (report) {
      verify.className = `verify ${report.ok ? "ok" : "bad"}`;
      clear(verify, report.ok
        ? `Verified: the deal follows from the revealed seed and its commitment, and all ${report.moves ?? "?"} moves over ${report.rounds ?? "?"} round(s) are legal.`
        : ["Verification failed: ", h("ul", {}, report.problems.map((p) => h("li", {}, `${p.detail}${p.rule ? ` (${p.rule})` : ""}`)))],
        h("div", { class: "muted small" }, `seed ${report.seed.slice(0, 16)}…, commitment ${report.seed_commitment.slice(0, 16)}…`));
    } else {
      verify.textContent = problemText(ve);
    }
    const { data: text, error: re } = await api.GET("/v1/games/{game_id}/record", { params: { path: { game_id: id }, query: { format: "text" } }, parseAs: "text" });
    if (closed) return;
    if (typeof text === "string") {
      objectUrl = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      clear(download, h("a", { href: objectUrl, download: `game-${id}.txt`, id: "download-record" }, "Download the game record"),
        h("span", { class: "muted" }, ` (${text.split("\n").length} lines, docs/record-format.md)`));
    } else {
      download.textContent = problemText(re);
    }
  })();

  /**
   * The record (export_record, JSON) gives every round's deal and its tricks
   * in log order; a trick's cards are the n-th moves of the log, so the trick
   * menu jumps to the event of its last card. One request, however long the game.
   */
  async function fromRecord(events: EventResource[], menu: HTMLSelectElement, deal: HTMLElement, game: Game): Promise<void> {
    const { data: record } = await api.GET("/v1/games/{game_id}/record", { params: { path: { game_id: id }, query: { format: "json" } } });
    if (closed || !record || typeof record !== "object") return;
    const moveSeqs = events.filter((e) => e.type === "move").map((e) => e.seq);
    let moves = 0;
    for (const round of record.rounds) {
      const group = h("optgroup", { label: `round ${round.number}` });
      for (const e of round.events) {
        if (e.event === "move") { moves += 1; continue; }
        const end = moveSeqs[moves + e.plays.length - 1];
        if (end !== undefined) {
          const winner = e.winner ?? null;
          const trick = e.plays.map((p) => ({ seat: p.seat, card: p.card }));
          completes.set(end, { plays: game.kind === "cancellation-hearts" ? markCancelled(trick) : trick, winner, gathering: false });
          const taker = winner !== null ? `${seatName(game, winner)} takes it` : "set aside";
          group.append(h("option", { value: String(end) }, `round ${round.number}, trick ${e.number}: ${taker}`));
        }
        moves += e.plays.length;
      }
      menu.append(group);
      deal.append(h("div", { class: "deal-round", "data-round": round.number },
        h("h3", {}, `Round ${round.number}: dealer ${seatName(game, round.dealer)}`),
        round.hands.map((cards, seat) => h("div", { class: "hand-line", "data-seat": seat },
          h("span", {}, `${seatName(game, seat)}: `), sorted(cards).map((c) => chip(c, "small")))),
        round.kitty?.length ? h("div", { class: "hand-line" }, "Kitty: ", round.kitty.map((c) => chip(c, "small"))) : null));
    }
  }

  return () => {
    closed = true;
    analysis?.close();
    if (objectUrl) URL.revokeObjectURL(objectUrl);
  };
}

/** The replay's header: a Challenge button by each other person who sat at the game, and one for them all. */
function playAgain(game: Game): HTMLElement | null {
  const others = otherPlayers(game);
  if (!others.length) return null;
  const box = new ChallengeBox("replay-challenge", game.kind as Kind);
  return h("div", { class: "play-again" },
    h("p", {}, "Play them again: ", others.map((o) => [box.button([o]), " "]),
      others.length > 1 ? box.button(others, "Challenge everyone at this table again") : null),
    box.element);
}
