// The lobby of a signed-in player: Play now (quick play, seek.ts: a table
// with other people, bots after a wait; my active seeks, each back to its
// waiting screen) or a quick game against bots, a form to create a game of
// either kind, my games, games to join, games to watch and finished games
// to replay. (Signed out, `/` is the front door: front.ts.)
import { api, me, problemText, type Kind, type Schemas, type Summary } from "./api";
import { clear, h } from "./dom";
import { KIND_NAME } from "./words";
import { ChallengeBox } from "./challenge";
import { activeSeeks, BOTS_AFTER_MINUTES, seekForm, startSeek } from "./seek";

type SeatSpec = Schemas["SeatSpec"];

export function lobby(main: HTMLElement): () => void {
  clear(main, h("h1", { class: "lobby-title" }, `Welcome, ${me()?.display_name ?? ""}`), quickPlay(), createForm(), lists(), leaderboard());
  return () => {};
}

/** The quick games: the person at seat 0, sensible bots in every other seat. */
export const QUICK: { kind: Kind; players: number; text: string }[] = [
  { kind: "lost-heir", players: 3, text: "Lost Heir: you and 2 bots" },
  { kind: "cancellation-hearts", players: 6, text: "Cancellation Hearts: you and 5 bots" },
];

/** Creates a game against bots and opens its table; a problem's text if refused. */
export async function quickGame(kind: Kind, players: number): Promise<string | null> {
  const seats: SeatSpec[] = ["open", ...Array<SeatSpec>(players - 1).fill("bot")];
  const { data, error } = await api.POST("/v1/games", { body: { kind, config: { players }, seats, take_seat: 0 } });
  if (!data) return problemText(error);
  location.hash = `#/game/${data.id}`;
  return null;
}

function quickPlay(): HTMLElement {
  const error = h("p", { class: "error", role: "alert" });
  const seek = seekForm("lobby");
  const seeking = h("div", { id: "seeking-box" });
  const play = h("button", { type: "submit", class: "primary", id: "lobby-seek" }, "Play now");
  const form = h("form", { class: "quick-seek", id: "lobby-seek-form", "aria-labelledby": "quick-play-title" },
    h("p", {}, `A table with other players; bots fill the empty seats after ${BOTS_AFTER_MINUTES} minutes if not enough come.`),
    h("div", { class: "field" }, h("label", { for: "lobby-kind" }, "Game"), seek.kind, play),
    seek.options);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    play.disabled = true;
    error.textContent = (await startSeek(seek.request())) ?? "";
    play.disabled = false;
  });
  void activeSeeks().then((list) => { if (list) clear(seeking, list); });
  return h("div", { class: "card-panel quick", id: "quick-play" },
    h("h2", { id: "quick-play-title" }, "Play now"),
    seeking, form,
    h("p", { class: "muted small" }, "Or at once against bots:"),
    h("div", { class: "choices" }, QUICK.map((q) => h("button", { type: "button", "data-kind": q.kind,
      onclick: async () => { error.textContent = (await quickGame(q.kind, q.players)) ?? ""; } }, q.text))),
    error);
}

function createForm(): HTMLElement {
  const kind = h("select", { id: "kind", name: "kind" },
    h("option", { value: "lost-heir" }, "Lost Heir (2-4 players)"),
    h("option", { value: "cancellation-hearts" }, "Cancellation Hearts (6-10 players)"));
  const players = h("input", { id: "players", name: "players", type: "number", min: 2, max: 4, value: 3 });
  const partnerships = h("input", { id: "partnerships", name: "partnerships", type: "checkbox", checked: true });
  const hintsAllowed = h("input", { id: "hints", name: "hints", type: "checkbox" });
  const target = h("input", { id: "target", name: "target", type: "number", placeholder: "default" });
  const bidderContract = h("input", { id: "bidder-contract", name: "bidder_contract", type: "checkbox" });
  const allCancelled = h("select", { id: "all-cancelled", name: "all_cancelled" },
    h("option", { value: "extend" }, "extend the trick (CH-8, default)"),
    h("option", { value: "carry_over" }, "set it aside for the next trick (CH-9)"));
  const deadline = h("input", { id: "deadline", name: "move_deadline_secs", type: "number", min: 1, max: 2592000, placeholder: "none" });
  const onDeadline = h("select", { id: "on-deadline", name: "on_deadline", "aria-label": "when the time runs out" },
    h("option", { value: "bot" }, "the bot moves for the seat"),
    h("option", { value: "forfeit" }, "the seat forfeits"));
  const seatsBox = h("fieldset", { class: "seats" });
  const lhOnly = h("div", { class: "field lh-only" }, h("label", {}, partnerships, " partnerships (4 players: seats 0+2 against 1+3, LH-3)"));
  const lhVariant = h("div", { class: "field lh-only" },
    h("label", {}, bidderContract, " the bidder's contract: an accepted bid binds the bidder's side (LH-13 variant)"));
  const chOnly = h("div", { class: "field ch-only" },
    h("label", { for: "all-cancelled" }, "When every card of the suit led is cancelled"), allCancelled);
  const error = h("p", { class: "error", role: "alert" });

  const seatSelects: HTMLSelectElement[] = [];
  const renderSeats = () => {
    const n = Number(players.value) || 0;
    seatSelects.length = 0;
    const rows: HTMLElement[] = [h("legend", {}, "Seats")];
    rows.push(h("div", { class: "seat-row" }, "Seat 0: you"));
    for (let i = 1; i < n; i++) {
      const sel = h("select", { id: `seat-${i}`, "aria-label": `seat ${i}` },
        h("option", { value: "bot" }, "bot (sensible)"),
        h("option", { value: "bot_expert" }, "bot (expert: searches, slower)"),
        h("option", { value: "bot_random" }, "bot (random moves)"),
        h("option", { value: "open" }, "open for a player"));
      seatSelects.push(sel);
      rows.push(h("div", { class: "seat-row" }, h("label", { for: `seat-${i}` }, `Seat ${i}: `), sel));
    }
    clear(seatsBox, rows);
  };
  const onKind = () => {
    const lh = kind.value === "lost-heir";
    players.min = lh ? "2" : "6";
    players.max = lh ? "4" : "10";
    const n = Number(players.value);
    if (n < Number(players.min) || n > Number(players.max)) players.value = lh ? "3" : "6";
    lhOnly.hidden = !lh || players.value !== "4";
    lhVariant.hidden = !lh;
    chOnly.hidden = lh;
    renderSeats();
  };
  kind.addEventListener("change", onKind);
  players.addEventListener("input", onKind);
  onKind();

  const form = h("form", { class: "card-panel create", "aria-labelledby": "create-title" },
    h("h2", { id: "create-title" }, "New game"),
    h("div", { class: "field" }, h("label", { for: "kind" }, "Game"), kind),
    h("div", { class: "field" }, h("label", { for: "players" }, "Players"), players),
    lhOnly, lhVariant, chOnly,
    h("div", { class: "field" }, h("label", { for: "target" }, "Target score"), target),
    h("div", { class: "field" }, h("label", { for: "deadline" }, "Seconds per move"), deadline, onDeadline),
    seatsBox,
    h("div", { class: "field" }, h("label", {}, hintsAllowed, " allow hints: the seated players may ask the expert bot what it would play (the game is then unrated)")),
    h("button", { type: "submit", id: "create" }, "Create and sit down"),
    error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const k = kind.value as Kind;
    const n = Number(players.value);
    const seats: SeatSpec[] = ["open", ...seatSelects.map((s) => s.value as SeatSpec)];
    const t = target.value ? Number(target.value) : undefined;
    const config: Schemas["GameConfigInput"] = k === "lost-heir"
      ? {
          players: n,
          ...(n === 4 ? { partnerships: partnerships.checked } : {}),
          ...(t !== undefined ? { target: t } : {}),
          ...(bidderContract.checked ? { bidder_contract: true } : {}),
        }
      : { players: n, all_cancelled: allCancelled.value as Schemas["AllCancelled"], ...(t !== undefined ? { target: t } : {}) };
    const body: Schemas["CreateGameRequest"] = { kind: k, config, seats, take_seat: 0, ...(hintsAllowed.checked ? { hints: true } : {}) };
    if (deadline.value) {
      body.move_deadline_secs = Number(deadline.value);
      body.on_deadline = onDeadline.value as Schemas["DeadlinePolicy"];
    }
    const { data, error: problem } = await api.POST("/v1/games", { body });
    if (!data) { error.textContent = problemText(problem); return; }
    location.hash = `#/game/${data.id}`;
  });
  return form;
}

function lists(): HTMLElement {
  const open = h("ul", { class: "games", id: "open-games" });
  const mine = h("ul", { class: "games", id: "my-games" });
  const watch = h("ul", { class: "games", id: "watch-games" });
  const finished = h("ul", { class: "games", id: "finished-games" });
  const section = h("section", { class: "lists" },
    h("div", { class: "card-panel" }, h("h2", {}, "My games"), mine),
    h("div", { class: "card-panel" }, h("h2", {}, "Open games to join"), open),
    h("div", { class: "card-panel" }, h("h2", {}, "Games to watch"), watch),
    h("div", { class: "card-panel" }, h("h2", {}, "Finished games (replay)"), finished));
  void fill(open, { status: "open" }, "join");
  // Games to watch are other people's: my own are under "My games".
  void fill(watch, { status: "in_progress" }, "watch", (g) => !g.seats.some((s) => s.player_id && s.player_id === me()?.player_id));
  void fill(finished, { status: "finished" }, "replay");
  void fillMine(mine);
  return section;
}

export function summaryLine(g: Summary, action: "join" | "watch" | "replay" | "open", link?: (id: string) => string): HTMLElement {
  const filled = g.seats.filter((s) => s.occupant !== "open").length;
  const names = g.seats.map((s) => s.occupant === "bot" ? "bot" : s.display_name ?? "open").join(", ");
  const href = link ? link(g.id) : action === "replay" ? `#/replay/${g.id}` : `#/game/${g.id}`;
  const verb = { join: "Join", watch: "Watch", replay: "Replay", open: "Open" }[action];
  return h("li", { class: "game-line" },
    h("a", { href, "data-game": g.id }, `${verb} ${KIND_NAME[g.kind] ?? g.kind}`),
    h("span", { class: "muted" }, ` ${g.status.replace("_", " ")}, ${filled}/${g.seats.length} seated: ${names}`));
}

export async function fill(list: HTMLElement, query: { status: Schemas["GameStatus"] }, action: "join" | "watch" | "replay",
  keep: (g: Summary) => boolean = () => true, link?: (id: string) => string): Promise<void> {
  const { data, error } = await api.GET("/v1/games", { params: { query: { ...query, limit: 20 } } });
  if (!data) { clear(list, h("li", { class: "error" }, problemText(error))); return; }
  const games = data.games.filter(keep);
  clear(list, games.length ? games.map((g) => summaryLine(g, action, link)) : h("li", { class: "muted" }, "none"));
}

/** The games I hold a seat in, newest first (`list_games?mine=true`). */
async function fillMine(list: HTMLElement): Promise<void> {
  const { data, error } = await api.GET("/v1/games", { params: { query: { mine: true, limit: 30 } } });
  if (!data) { clear(list, h("li", { class: "error" }, problemText(error))); return; }
  clear(list, data.games.length
    ? data.games.map((g) => summaryLine(g, g.status === "finished" ? "replay" : "open"))
    : h("li", { class: "muted" }, "none yet"));
}

/** How many of a leaderboard's rows the lobby shows. */
const LEADERBOARD_ROWS = 10;

/**
 * The leaderboard of a kind (get_leaderboard): rank, name, rating, games,
 * and a Challenge button by each other person (not me, not the bots).
 */
function leaderboard(): HTMLElement {
  const kind = h("select", { id: "leaderboard-kind" }, (Object.keys(KIND_NAME) as Kind[]).map((k) => h("option", { value: k }, KIND_NAME[k])));
  const body = h("div", { id: "leaderboard-rows", "aria-live": "polite" });
  const show = async () => {
    const k = kind.value as Kind;
    const box = new ChallengeBox("leaderboard-challenge", k);
    const { data, error } = await api.GET("/v1/leaderboards/{kind}", { params: { path: { kind: k }, query: { limit: LEADERBOARD_ROWS } } });
    if (!data) { clear(body, h("p", { class: "error" }, problemText(error))); return; }
    if (!data.entries.length) { clear(body, h("p", { class: "muted" }, "No rated game of this kind has finished yet.")); return; }
    const mine = me()?.player_id;
    clear(body, h("table", { class: "summary-table leaderboard" },
      h("caption", { class: "sr-only" }, `${KIND_NAME[k]} ratings, highest first`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"), h("th", { scope: "col" }, h("span", { class: "sr-only" }, "Challenge")))),
      h("tbody", {}, data.entries.map((e, i) => h("tr", { "data-subject": e.subject },
        h("td", {}, String(i + 1)),
        h("th", { scope: "row" }, e.display_name, e.subject === mine ? " (you)" : ""),
        h("td", {}, `${Math.round(e.rating)} ±${Math.round(2 * e.deviation)}`),
        h("td", {}, String(e.games)),
        h("td", {}, e.is_bot || e.subject === mine ? "" : box.button([{ player_id: e.subject, display_name: e.display_name }], "Challenge")))))),
    box.element);
  };
  kind.addEventListener("change", () => void show());
  void show();
  return h("div", { class: "card-panel", id: "leaderboard" },
    h("h2", { id: "leaderboard-title" }, "Leaderboard"),
    h("div", { class: "field" }, h("label", { for: "leaderboard-kind" }, "Game"), kind),
    body);
}
