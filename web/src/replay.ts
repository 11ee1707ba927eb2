// The replay viewer: a finished game stepped through every event of its log
// (get_events for the list, get_replay?seq= for the table after each), the
// full deal, the verification (verify_game) and a download of the record
// (export_record, as a Blob link: allowed by the page's CSP).
import { api, problemText, type EventResource, type Game, type HeartsView, type LostHeirView } from "./api";
import { clear, h } from "./dom";
import { sorted } from "./cards";
import { chip, eventText, seatName, views } from "./table";

export function replay(main: HTMLElement, id: string): () => void {
  let closed = false;
  let objectUrl: string | null = null;
  const root = h("section", { class: "replay", id: "replay", "data-game": id }, h("p", { class: "muted" }, "Loading the replay…"));
  clear(main, root);
  const render = views({ legal: () => null, selected: new Set(), send: async () => {}, render: () => {} });

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
    const trickSelect = h("select", { id: "trick-select", "aria-label": "go to trick" }, h("option", { value: "" }, "go to a trick…"));
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
      if (Object.keys(at.view).length === 0) { clear(board, h("p", { class: "muted" }, "Before the deal.")); return; }
      clear(board, at.kind === "lost-heir"
        ? render.lostHeirTable(at, at.view as LostHeirView, null)
        : render.heartsTable(at, at.view as HeartsView, null));
      // A replay asks nothing of anyone.
      board.querySelector("#prompt")?.remove();
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

    const deal = h("details", { class: "card-panel", id: "full-deal", open: true }, h("summary", {}, "The full deal (round 1, before the first move)"));
    clear(root,
      h("div", { class: "card-panel" },
        h("h1", {}, `Replay: ${game.kind === "lost-heir" ? "Lost Heir" : "Cancellation Hearts"}`),
        h("p", {}, render.finishedText(game)),
        verify, download),
      deal,
      h("div", { class: "card-panel replay-controls", role: "toolbar", "aria-label": "replay" },
        first, back, forward, last, counter, select, trickSelect),
      board);
    await show(index);
    const { data: dealt } = await api.GET("/v1/games/{game_id}/replay", { params: { path: { game_id: id }, query: { seq: 0 } } });
    if (closed) return;
    const view = dealt?.view as { hands?: string[][] | null; secrets?: { hands: string[][]; kitty: string[] } | null } | undefined;
    const hands = view?.hands ?? view?.secrets?.hands ?? [];
    for (const [seat, cards] of hands.entries()) {
      deal.append(h("div", { class: "hand-line", "data-seat": seat }, h("span", {}, `${seatName(game, seat)}: `), sorted(cards).map((c) => chip(c, "small"))));
    }
    if (view?.secrets?.kitty.length) deal.append(h("div", { class: "hand-line" }, "Kitty: ", view.secrets.kitty.map((c) => chip(c, "small"))));
    if (!hands.length) deal.append(h("p", { class: "muted" }, "The replay shows no hands."));
    void tricks(events, trickSelect);

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

  /** Fills the trick menu from the replay views: a trick starts where a card is led into an empty trick. */
  async function tricks(events: EventResource[], menu: HTMLSelectElement): Promise<void> {
    // A lead is a play whose previous state had no plays in the trick; the
    // log alone cannot tell (cancellations extend tricks), so ask the
    // replay at each play, a few at a time.
    const plays = events.filter((e) => e.type === "move" && (e.payload as { type?: string }).type === "play");
    let n = 0;
    for (let i = 0; i < plays.length && !closed; i += 8) {
      const batch = plays.slice(i, i + 8);
      const views = await Promise.all(batch.map(async (e) => (await api.GET("/v1/games/{game_id}/replay", { params: { path: { game_id: id }, query: { seq: e.seq } } })).data));
      batch.forEach((e, j) => {
        const view = views[j]?.view as { trick?: { plays: unknown[] } | null } | undefined;
        if (view?.trick && view.trick.plays.length === 1) {
          n += 1;
          menu.append(h("option", { value: String(e.seq - 1) }, `trick ${n} (event ${e.seq})`));
        }
      });
    }
  }

  return () => {
    closed = true;
    if (objectUrl) URL.revokeObjectURL(objectUrl);
  };
}
