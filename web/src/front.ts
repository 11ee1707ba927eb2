// The front door: what a signed-out visitor to `/` sees. What the two
// games are (with their rules pages), a way to play at once (a name, then
// quick play: a table with other people, bots after a wait, options a
// disclosure away; or a game against bots at once; or the lobby), tables
// waiting for players and live games to watch (list_games, public facts
// only).
import { api, me, problemText, signIn } from "./api";
import { h } from "./dom";
import { clear } from "./dom";
import { chip } from "./faces";
import { fill, QUICK, quickGame } from "./lobby";
import { BOTS_AFTER_MINUTES, seekForm, startSeek } from "./seek";

const GAMES = [
  { kind: "lost-heir", name: "Lost Heir", players: "2 to 4 players", cards: ["heir", "toronto-mayor", "wrong-boy"],
    text: "Bid for the points your side will take, name the trump city, chase the Lost Heir and dodge the Wrong Boy. Partners at four." },
  { kind: "cancellation-hearts", name: "Cancellation Hearts", players: "6 to 10 players", cards: ["QS", "9D", "9D"],
    text: "Hearts for a crowd, with two decks: identical cards in a trick cancel each other out. Avoid the hearts and the queens of spades." },
];

export function frontDoor(main: HTMLElement, signedIn: () => void, showLobby: () => void): () => void {
  let alive = true;
  const name = h("input", { id: "display-name", name: "display_name", required: true, maxlength: 64, autocomplete: "nickname" });
  const seek = seekForm("front");
  const error = h("p", { class: "error", role: "alert" });
  let intent: "seek" | "bots" | "lobby" = "seek";
  const buttons = [
    h("button", { type: "submit", class: "primary", id: "seek-now", onclick: () => { intent = "seek"; } }, "Play now"),
    h("button", { type: "submit", id: "play-bots", onclick: () => { intent = "bots"; } }, "Play against bots"),
    h("button", { type: "submit", id: "enter-lobby", onclick: () => { intent = "lobby"; } }, "Go to the lobby"),
  ];
  const form = h("form", { class: "card-panel register", id: "play-now", "aria-labelledby": "play-now-title" },
    h("h2", { id: "play-now-title" }, "Play now"),
    h("p", {}, `No account, no download: choose the name the table will call you. Play now seats you with other players; if not enough come, bots fill the empty seats after ${BOTS_AFTER_MINUTES} minutes.`),
    h("div", { class: "field" }, h("label", { for: "display-name" }, "Your name"), name),
    h("div", { class: "field" }, h("label", { for: "front-kind" }, "Game"), seek.kind),
    seek.options,
    h("div", { class: "choices" }, buttons),
    error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    for (const b of buttons) b.disabled = true;
    const refused = await enter();
    if (!alive) return;
    for (const b of buttons) b.disabled = false;
    error.textContent = refused ?? "";
    intent = "seek";
  });
  /** Registers the name, then does what the button pressed asks; a problem's text if refused. */
  async function enter(): Promise<string | null> {
    // Signed in already when a first try was refused after the name was taken.
    if (!me()) {
      const { data, error: problem } = await api.POST("/v1/players", { body: { display_name: name.value.trim() } });
      if (!alive) return null;
      if (!data) return problemText(problem);
      signIn(data);
      signedIn();
    }
    if (intent === "lobby") { showLobby(); return null; }
    if (intent === "seek") return startSeek(seek.request());
    const q = QUICK.find((x) => x.kind === seek.kind.value) ?? QUICK[0]!;
    return quickGame(q.kind, q.players);
  }
  const open = h("ul", { class: "games", id: "front-open" });
  const live = h("ul", { class: "games", id: "front-live" });
  clear(main,
    h("section", { class: "front", "aria-labelledby": "front-title" },
      h("h1", { id: "front-title" }, "Card games at a real table"),
      h("p", { class: "lead" }, "Two trick-taking games to play in your browser, with friends or against bots, on a phone or a big screen."),
      form,
      h("div", { class: "game-cards" }, GAMES.map((g) => h("article", { class: "card-panel game-card", "data-kind": g.kind },
        h("h2", {}, g.name, " ", h("span", { class: "muted small" }, g.players)),
        h("div", { class: "rules-cards" }, g.cards.map((c) => chip(c))),
        h("p", {}, g.text),
        h("a", { href: `#/rules/${g.kind}` }, `How ${g.name} is played`))))),
    h("section", { class: "lists" },
      h("div", { class: "card-panel" }, h("h2", {}, "Tables waiting for players"), open),
      h("div", { class: "card-panel" }, h("h2", {}, "Live games to watch"), live)));
  void fill(open, { status: "open" }, "join", () => true, (id) => `#/invite/${id}`);
  void fill(live, { status: "in_progress" }, "watch");
  return () => { alive = false; };
}
