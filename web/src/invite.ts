// Invitations, kept apart so that a server-minted invite token can replace
// the link later: today an invitation is the waiting game's own address,
// `#/invite/<game id>`. Following it, a newcomer picks a display name
// (register_player) and sits in the first open seat (join_game); someone
// signed in sits down at once; a game already under way is offered to watch.
import { api, me, problemText, publicApi, signIn, type Game } from "./api";
import { clear, h } from "./dom";
import { KIND_NAME, listNames, seatName } from "./words";

/** The link that invites someone to `gameId`. */
export function inviteUrl(gameId: string): string {
  return `${location.origin}/#/invite/${gameId}`;
}

/** The seats `player` (null: a newcomer) may take. */
function openSeats(g: Game, player: string | null): number[] {
  return g.seats.filter((s) => s.occupant === "open" && (!s.invited_player_id || s.invited_player_id === player)).map((s) => s.seat);
}

/** "Copy invite link" on a waiting table, with the link shown to copy by hand where the clipboard is not allowed. */
export function inviteBox(g: Game): HTMLElement | null {
  if (g.status !== "open" || !openSeats(g, null).length) return null;
  const url = inviteUrl(g.id);
  const status = h("span", { class: "muted", id: "invite-status", role: "status" });
  const field = h("input", { id: "invite-link", readonly: true, value: url, "aria-label": "invite link", class: "invite-link" });
  field.addEventListener("focus", () => field.select());
  const copy = h("button", { type: "button", class: "primary", id: "copy-invite", "data-key": "copy-invite", onclick: async () => {
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = "Copied: send it to a friend.";
    } catch {
      field.focus();
      status.textContent = "Select the link and copy it.";
    }
  } }, "Copy invite link");
  return h("div", { class: "invite", id: "invite" },
    h("p", {}, "Invite someone: whoever follows this link picks a name and sits down."),
    h("div", { class: "invite-row" }, field, copy), status);
}

/** `#/invite/<id>`: sit a newcomer (or a signed-in player) down at the game. */
export function invitePage(main: HTMLElement, id: string, signedIn: () => void): () => void {
  let alive = true;
  const box = h("section", { class: "card-panel invite-page", id: "invite-page", "aria-labelledby": "invite-title" }, h("p", { class: "muted" }, "Loading the invitation…"));
  clear(main, box);

  async function sit(g: Game): Promise<void> {
    const self = me();
    const seat = openSeats(g, self?.player_id ?? null)[0];
    if (seat === undefined) { location.hash = `#/game/${id}`; return; }
    const { data, error } = await api.POST("/v1/games/{game_id}/join", { params: { path: { game_id: id } }, body: { seat } });
    if (!alive) return;
    if (data) location.hash = `#/game/${id}`;
    else show(g, problemText(error));
  }

  function show(g: Game, problem = ""): void {
    const host = g.seats.find((s) => s.occupant === "player");
    const kind = KIND_NAME[g.kind] ?? g.kind;
    const players = g.seats.length;
    const seated = g.seats.filter((s) => s.occupant !== "open").map((s) => seatName(g, s.seat));
    const self = me();
    const mine = self && g.seats.some((s) => s.player_id === self.player_id);
    const free = openSeats(g, self?.player_id ?? null);
    const error = h("p", { class: "error", role: "alert", id: "invite-problem" }, problem);
    const intro = h("p", {}, `${host?.display_name ?? "Someone"} invites you to a game of ${kind} for ${players}. `,
      h("a", { href: `#/rules/${g.kind}` }, `How ${kind} is played`), ".");
    const at = h("p", { class: "muted" }, `At the table: ${listNames(seated)}.`);
    if (g.status !== "open" || mine || !free.length) {
      clear(box, h("h1", { id: "invite-title" }, `A game of ${kind}`),
        h("p", {}, mine ? "You already have a seat at this game." : g.status === "open" ? "Every seat is taken." : "This game has already started."),
        h("a", { href: `#/game/${id}`, id: "invite-open" }, mine ? "Go to the table" : "Watch it"));
      return;
    }
    if (self) {
      clear(box, h("h1", { id: "invite-title" }, `Join ${host?.display_name ?? "the"}${host ? "'s" : ""} game`), intro, at,
        h("button", { type: "button", class: "primary", id: "invite-sit", onclick: () => void sit(g) }, `Sit down as ${self.display_name}`), error);
      return;
    }
    const name = h("input", { id: "invite-name", name: "display_name", required: true, maxlength: 64, autocomplete: "nickname" });
    const form = h("form", { class: "invite-form" },
      h("label", { for: "invite-name" }, "Your name at the table"), name,
      h("button", { type: "submit", class: "primary", id: "invite-join" }, "Sit down"), error);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const { data, error: problem } = await api.POST("/v1/players", { body: { display_name: name.value.trim() } });
      if (!alive) return;
      if (!data) { error.textContent = problemText(problem); return; }
      signIn(data);
      signedIn();
      await sit(g);
    });
    clear(box, h("h1", { id: "invite-title" }, `Join ${host?.display_name ?? "the"}${host ? "'s" : ""} game`), intro, at, form);
  }

  void (async () => {
    const client = me() ? api : publicApi;
    const { data, error } = await client.GET("/v1/games/{game_id}", { params: { path: { game_id: id } } });
    if (!alive) return;
    if (!data) { clear(box, h("h1", { id: "invite-title" }, "Invitation"), h("p", { class: "error", role: "alert" }, problemText(error))); return; }
    show(data);
  })();
  return () => { alive = false; };
}
