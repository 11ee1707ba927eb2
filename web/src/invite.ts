// Invitations. "Copy invite link" on a waiting table mints a server invite
// link (create_invite: reusable, for any open seat) and offers
// `#/invite/<token>`; following it, a newcomer picks a display name
// (register_player) and is seated by the link (accept_invite); someone
// signed in sits down at once. `#/invite/<game id>` stays the open game's
// own page (the front door's "join" and a signed-out visitor's table link):
// it sits a newcomer in the first open seat (join_game). A game already
// under way is offered to watch.
import { api, me, problemText, publicApi, signIn, type Game, type Schemas } from "./api";
import { clear, h } from "./dom";
import { KIND_NAME, listNames, seatName } from "./words";

type Summary = Schemas["GameSummary"];

/** The open game's own page, `#/invite/<game id>`. */
export function inviteUrl(gameId: string): string {
  return `${location.origin}/#/invite/${gameId}`;
}

/** A minted link for `g`: reusable, for as many people as it has open seats; the open game's page when this player may not mint (the game lets only its creator invite). */
async function mintLink(g: Game): Promise<string> {
  const uses = Math.max(1, openSeats(g, null).length);
  const { data, response } = await api.POST("/v1/games/{game_id}/invites", {
    params: { path: { game_id: g.id } }, body: { uses: "reusable", max_uses: uses } });
  if (data) return `${location.origin}${data.path}`;
  if (response.status === 403) return inviteUrl(g.id);
  throw new Error("the invite link could not be made");
}

/** The seats `player` (null: a newcomer) may take. */
function openSeats(g: Game | Summary, player: string | null): number[] {
  return g.seats.filter((s) => s.occupant === "open" && (!s.invited_player_id || s.invited_player_id === player)).map((s) => s.seat);
}

/** "Copy invite link" on a waiting table, with the link shown to copy by hand where the clipboard is not allowed. */
export function inviteBox(g: Game): HTMLElement | null {
  if (g.status !== "open" || !openSeats(g, null).length) return null;
  const status = h("span", { class: "muted", id: "invite-status", role: "status" });
  const field = h("input", { id: "invite-link", readonly: true, value: "", placeholder: "the link appears here", "aria-label": "invite link", class: "invite-link" });
  field.addEventListener("focus", () => field.select());
  // Minted on the first click only: one link per table view, reused after.
  let url = "";
  const copy = h("button", { type: "button", class: "primary", id: "copy-invite", "data-key": "copy-invite", onclick: async () => {
    try {
      url ||= await mintLink(g);
      field.value = url;
    } catch (e) {
      status.textContent = String((e as Error).message);
      return;
    }
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

/** `#/invite/<token>`: a minted link. Shows the game (get_invite, no sign-in needed), signs a newcomer up with a name, then follows the link (accept_invite). */
export function tokenInvitePage(main: HTMLElement, token: string, signedIn: () => void): () => void {
  let alive = true;
  const box = h("section", { class: "card-panel invite-page", id: "invite-page", "aria-labelledby": "invite-title" }, h("p", { class: "muted" }, "Loading the invitation…"));
  clear(main, box);

  async function follow(g: Summary, error: HTMLElement): Promise<void> {
    const { data, error: problem } = await api.POST("/v1/invites/{token}/accept", { params: { path: { token } }, body: {} });
    if (!alive) return;
    if (data) location.hash = `#/game/${g.id}`;
    else error.textContent = problemText(problem);
  }

  function show(view: Schemas["InviteView"]): void {
    const g = view.game;
    const host = g.seats.find((s) => s.occupant === "player");
    const kind = KIND_NAME[g.kind] ?? g.kind;
    const seated = g.seats.filter((s) => s.occupant !== "open").map((s) => s.display_name ?? (s.occupant === "bot" ? "a bot" : `seat ${s.seat}`));
    const self = me();
    const mine = self && g.seats.some((s) => s.player_id === self.player_id);
    const title = h("h1", { id: "invite-title" }, `Join ${host?.display_name ?? "the"}${host ? "'s" : ""} game`);
    const error = h("p", { class: "error", role: "alert", id: "invite-problem" });
    const seatWords = view.seat === undefined || view.seat === null ? "" : ` You would sit at seat ${view.seat}.`;
    const intro = h("p", {}, `${host?.display_name ?? "Someone"} invites you to a game of ${kind} for ${g.seats.length}.${seatWords} `,
      h("a", { href: `#/rules/${g.kind}` }, `How ${kind} is played`), ".");
    const at = h("p", { class: "muted" }, `At the table: ${listNames(seated)}.`);
    if (mine || !view.usable) {
      const why = mine ? "You already have a seat at this game."
        : view.refusal === "invite_expired" ? "This invite link has expired."
        : view.refusal === "invite_revoked" ? "This invite link was withdrawn."
        : view.refusal === "invite_used" ? "This invite link has been used."
        : g.status === "open" ? "Every seat is taken." : "This game has already started.";
      clear(box, h("h1", { id: "invite-title" }, `A game of ${kind}`), h("p", {}, why),
        h("a", { href: `#/game/${g.id}`, id: "invite-open" }, mine ? "Go to the table" : "Watch it"));
      return;
    }
    if (self) {
      clear(box, title, intro, at,
        h("button", { type: "button", class: "primary", id: "invite-sit", onclick: () => void follow(g, error) }, `Sit down as ${self.display_name}`), error);
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
      await follow(g, error);
    });
    clear(box, title, intro, at, form);
  }

  void (async () => {
    const { data, error } = await publicApi.GET("/v1/invites/{token}", { params: { path: { token } } });
    if (!alive) return;
    if (!data) { clear(box, h("h1", { id: "invite-title" }, "Invitation"), h("p", { class: "error", role: "alert" }, problemText(error))); return; }
    show(data);
  })();
  return () => { alive = false; };
}
