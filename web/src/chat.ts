// Table talk at the table (docs/chat.md): the game's messages, from the
// game stream's `message` frames (resumed with `messages_after`) and a
// re-read (get_messages) whenever what the viewer sees changes; a box to
// post (a refusal, such as the rate limit, shown with the server's detail);
// for a seated viewer a "show spectators" toggle (set_chat_settings); a
// mute button on another player's message and the mutes with an unmute.
import { api, me, problemText, publicApi, token, type Game, type Schemas } from "./api";
import { clear, h } from "./dom";

type Message = Schemas["MessageResource"];
type Mute = Schemas["MuteResource"];

/** The most messages the panel keeps. */
const KEEP = 200;

export interface Chat {
  element: HTMLElement;
  /** Where the stream's table talk resumes (`messages_after`). */
  after(): number;
  /** Follows `source`'s `message` frames. */
  listen(source: EventSource): void;
  /** The game as it is now (whether the viewer sits: the toggle). */
  update(g: Game): void;
}

export function chat(id: string): Chat {
  const self = me();
  const signedIn = token() !== null;
  let messages: Message[] = [];
  let after = 0;
  let mutes: Mute[] = [];
  const path = { params: { path: { game_id: id } } };

  const list = h("ol", { id: "chat-messages", class: "chat-messages", "aria-live": "polite" });
  const problem = h("p", { class: "error", role: "alert", id: "chat-problem" });
  const mutedLine = h("p", { class: "muted chat-mutes", id: "chat-mutes" });
  const input = h("input", { id: "chat-text", maxlength: 500, placeholder: "Say something…", autocomplete: "off", "aria-label": "Message" });
  const form = h("form", { class: "chat-post", onsubmit: (e: Event) => { e.preventDefault(); void post(); } },
    input, h("button", { type: "submit", id: "chat-send" }, "Send"));
  const showBox = h("input", { type: "checkbox", id: "chat-show-spectators", checked: true, onchange: () => void setShow(showBox.checked) });
  const toggle = h("label", { class: "chat-toggle", hidden: true }, showBox, " Show spectators' messages");
  const element = h("details", { class: "card-panel chat", id: "chat", open: true },
    h("summary", {}, "Table talk"), toggle, list, mutedLine,
    signedIn ? form : h("p", { class: "muted" }, "Sign in to talk at this table."), problem);

  const client = () => (signedIn ? api : publicApi);

  function add(fresh: Message[]): void {
    const seen = new Set(messages.map((m) => m.seq));
    const muted = new Set(mutes.map((m) => m.player_id));
    const added = fresh.filter((m) => !seen.has(m.seq) && (m.author_id === self?.player_id || !muted.has(m.author_id)));
    for (const m of fresh) after = Math.max(after, m.seq);
    if (!added.length) return;
    messages = [...messages, ...added].sort((a, b) => a.seq - b.seq).slice(-KEEP);
    draw();
  }

  function draw(): void {
    clear(list, messages.map((m) => {
      const mine = m.author_id === self?.player_id;
      const where = m.author_seat === null || m.author_seat === undefined ? "spectator" : `seat ${m.author_seat}`;
      return h("li", { "data-seq": m.seq, "data-author": m.author_id, class: m.author_seat === null || m.author_seat === undefined ? "spectator" : "" },
        h("strong", {}, m.author_name), h("span", { class: "muted" }, ` (${where}) `),
        h("span", { class: "chat-text" }, m.text),
        signedIn && !mine ? h("button", { type: "button", class: "chat-mute", "data-player": m.author_id, title: `Hide ${m.author_name}'s messages everywhere`, onclick: () => void mute(m.author_id) }, "mute") : null);
    }));
    list.scrollTop = list.scrollHeight;
    clear(mutedLine, mutes.length ? ["Muted: ", mutes.map((m) => h("button", { type: "button", class: "chat-unmute", "data-player": m.player_id, onclick: () => void unmute(m.player_id) }, `${m.display_name} (unmute)`))] : null);
  }

  /** Everything the viewer may read now, again (after a change of what they see). */
  async function reload(): Promise<void> {
    const all: Message[] = [];
    let from = 0;
    for (;;) {
      const { data, error } = await client().GET("/v1/games/{game_id}/messages", { params: { path: { game_id: id }, query: { after: from, limit: 500 } } });
      if (!data) { problem.textContent = problemText(error); return; }
      all.push(...data.messages);
      showBox.checked = !data.spectators_hidden;
      if (data.next_after === null || data.next_after === undefined) break;
      from = data.next_after;
    }
    messages = [];
    add(all);
    draw();
  }

  async function post(): Promise<void> {
    const text = input.value;
    const { data, error } = await api.POST("/v1/games/{game_id}/messages", { ...path, body: { text } });
    if (data) { input.value = ""; problem.textContent = ""; add([data]); }
    else problem.textContent = problemText(error);
  }

  async function setShow(show: boolean): Promise<void> {
    const { data, error } = await api.PUT("/v1/games/{game_id}/chat-settings", { ...path, body: { show_spectators: show } });
    if (!data) { problem.textContent = problemText(error); showBox.checked = !show; return; }
    problem.textContent = "";
    await reload();
  }

  async function mute(player: string): Promise<void> {
    const { data, error } = await api.PUT("/v1/players/me/mutes/{player_id}", { params: { path: { player_id: player } } });
    if (!data) { problem.textContent = problemText(error); return; }
    mutes = data.mutes;
    messages = messages.filter((m) => m.author_id !== player);
    draw();
  }

  async function unmute(player: string): Promise<void> {
    const { data, error } = await api.DELETE("/v1/players/me/mutes/{player_id}", { params: { path: { player_id: player } } });
    if (!data) { problem.textContent = problemText(error); return; }
    mutes = data.mutes;
    await reload();
  }

  void (async () => {
    if (signedIn) {
      const { data } = await api.GET("/v1/players/me/mutes");
      if (data) mutes = data.mutes;
    }
    await reload();
  })();

  return {
    element,
    after: () => after,
    listen(source: EventSource): void {
      source.addEventListener("message", (e) => add([JSON.parse((e as MessageEvent<string>).data) as Message]));
    },
    update(g: Game): void {
      toggle.hidden = g.your_seat === null || g.your_seat === undefined;
    },
  };
}
