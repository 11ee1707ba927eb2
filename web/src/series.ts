// Resign and rematch on the table: a "Resign" button with a
// confirm step for a seated player while the game runs, and on a finished
// game a "Rematch" button that creates (or opens) the next game, links to
// the previous and next games, and the series' running totals
// (get_series). Types come from api.gen.ts only.
import { api, problemText, publicApi, type Game, type Schemas } from "./api";
import { h } from "./dom";

type Series = Schemas["SeriesResource"];

/** A series as last read, by series id, with the version of the game that asked. */
const seriesCache = new Map<string, { asked: string; series: Series | null }>();
/** Games whose "Resign" was clicked once: the confirm step is showing. */
const confirming = new Set<string>();

type Act = (run: () => Promise<{ data?: Game; error?: unknown }>) => Promise<void>;

function policyText(g: Game): string {
  return g.on_resign === "end_game"
    ? "The game ends now: your side forfeits and the others are ranked by the scores so far."
    : "The bot plays your seat to the end; the seat forfeits and cannot win.";
}

/** The resign button (and its confirm step) for the caller's seat, if they may resign. */
export function resignControls(g: Game, act: Act, rerender: () => void): HTMLElement | null {
  const mine = g.your_seat;
  if (g.status !== "in_progress" || mine === null || mine === undefined) return null;
  if (g.seats[mine]?.forfeited) return null;
  if (!confirming.has(g.id)) {
    return h("button", { type: "button", id: "resign", "data-key": "resign",
      onclick: () => { confirming.add(g.id); rerender(); } }, "Resign…");
  }
  return h("span", { class: "confirm", id: "resign-confirm" },
    h("span", {}, `Resign this game? ${policyText(g)} `),
    h("button", { type: "button", id: "resign-yes", "data-key": "resign-yes",
      onclick: () => {
        confirming.delete(g.id);
        void act(async () => api.POST("/v1/games/{game_id}/resign", { params: { path: { game_id: g.id } } }));
      } }, "Yes, resign"),
    " ",
    h("button", { type: "button", id: "resign-no", "data-key": "resign-no",
      onclick: () => { confirming.delete(g.id); rerender(); } }, "Keep playing"));
}

/** On a finished game: rematch, the links of its series, and the totals. */
export function seriesPanel(g: Game, rerender: () => void, setError: (text: string) => void): HTMLElement | null {
  if (g.status !== "finished") return null;
  const seated = g.your_seat !== null && g.your_seat !== undefined;
  const panel = h("div", { class: "card-panel", id: "series" }, h("h2", {}, "Series"));
  const links = h("p", {},
    g.previous_game_id ? h("a", { href: `#/game/${g.previous_game_id}`, id: "previous-game" }, "Previous game") : null,
    g.previous_game_id && g.next_game_id ? " · " : null,
    g.next_game_id ? h("a", { href: `#/game/${g.next_game_id}`, id: "next-game" }, "Next game") : null);
  panel.append(links);
  if (seated) {
    panel.append(h("button", { type: "button", id: "rematch", "data-key": "rematch",
      onclick: () => void rematch(g, setError) }, g.next_game_id ? "Open the rematch" : "Rematch"));
  }
  const seriesId = g.series_id;
  if (seriesId) {
    const cached = seriesCache.get(seriesId);
    const asked = `${g.id}@${g.version}`;
    if (!cached || cached.asked !== asked) {
      seriesCache.set(seriesId, { asked, series: cached?.series ?? null });
      void publicApi.GET("/v1/series/{series_id}", { params: { path: { series_id: seriesId } } }).then(({ data }) => {
        seriesCache.set(seriesId, { asked, series: data ?? null });
        rerender();
      });
    }
    const series = seriesCache.get(seriesId)?.series;
    if (series) panel.append(totals(series));
  }
  return panel;
}

async function rematch(g: Game, setError: (text: string) => void): Promise<void> {
  const { data, error } = await api.POST("/v1/games/{game_id}/rematch", { params: { path: { game_id: g.id } } });
  if (!data) { setError(problemText(error)); return; }
  location.hash = `#/game/${data.id}`;
}

function totals(series: Series): HTMLElement {
  const name = (t: Schemas["SeriesTotal"]) => (t.bot ? `Bot ${t.seat}` : t.display_name ?? `seat ${t.seat}`);
  return h("div", { id: "series-totals" },
    h("p", { class: "muted" }, `${series.finished} of ${series.games.length} games finished`),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Seat"), h("th", {}, "Games won"), h("th", {}, "Total score"))),
      h("tbody", {}, series.totals.map((t) => h("tr", { "data-seat": t.seat },
        h("td", {}, name(t)), h("td", {}, String(t.games_won)), h("td", {}, String(t.total_score)))))));
}
