// The front door: what a signed-out visitor to `/` sees. What the two
// games are (with their rules pages), a way to play at once (a name, then
// a game against bots, or the lobby), tables waiting for players and live
// games to watch (list_games, public facts only).
import { api, problemText, signIn, type Kind } from "./api";
import { h } from "./dom";
import { clear } from "./dom";
import { chip } from "./faces";
import { fill, QUICK, quickGame } from "./lobby";

const GAMES = [
  { kind: "lost-heir", name: "Lost Heir", players: "2 to 4 players", cards: ["heir", "toronto-mayor", "wrong-boy"],
    text: "Bid for the points your side will take, name the trump city, chase the Lost Heir and dodge the Wrong Boy. Partners at four." },
  { kind: "cancellation-hearts", name: "Cancellation Hearts", players: "6 to 10 players", cards: ["QS", "9D", "9D"],
    text: "Hearts for a crowd, with two decks: identical cards in a trick cancel each other out. Avoid the hearts and the queens of spades." },
];

export function frontDoor(main: HTMLElement, signedIn: () => void, showLobby: () => void): () => void {
  let alive = true;
  const name = h("input", { id: "display-name", name: "display_name", required: true, maxlength: 64, autocomplete: "nickname" });
  const game = h("select", { id: "quick-kind", name: "kind" }, QUICK.map((q, i) => h("option", { value: String(i) }, q.text)));
  const error = h("p", { class: "error", role: "alert" });
  let intent: "play" | "lobby" = "play";
  const form = h("form", { class: "card-panel register", id: "play-now", "aria-labelledby": "play-now-title" },
    h("h2", { id: "play-now-title" }, "Play now"),
    h("p", {}, "No account, no download: choose the name the table will call you."),
    h("div", { class: "field" }, h("label", { for: "display-name" }, "Your name"), name),
    h("div", { class: "field" }, h("label", { for: "quick-kind" }, "Game"), game),
    h("div", { class: "choices" },
      h("button", { type: "submit", class: "primary", id: "play-bots", onclick: () => { intent = "play"; } }, "Play against bots"),
      h("button", { type: "submit", id: "enter-lobby", onclick: () => { intent = "lobby"; } }, "Go to the lobby")),
    error);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const { data, error: problem } = await api.POST("/v1/players", { body: { display_name: name.value.trim() } });
    if (!alive) return;
    if (!data) { error.textContent = problemText(problem); return; }
    signIn(data);
    signedIn();
    if (intent === "lobby") { showLobby(); return; }
    const q = QUICK[Number(game.value)] ?? QUICK[0]!;
    const refused = await quickGame(q.kind as Kind, q.players);
    if (refused) error.textContent = refused;
  });
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
