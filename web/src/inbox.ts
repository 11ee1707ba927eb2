// "Your turn, everywhere": the player stream (stream_player, with a stream
// ticket) drives a badge and the list of games waiting for me (get_inbox).
// Each your_turn, notice or challenge re-reads the inbox; nothing polls.
// Challenges waiting for my answer are listed with Accept and Decline; the
// ones I sent and still wait for, with Withdraw (list_challenges). When one
// I sent is accepted by everyone, its game opens here.
import { api, me, problemText, streamTicket, token, type Schemas, type YourTurn } from "./api";
import { CHALLENGES_CHANGED } from "./challenge";
import { clear, h } from "./dom";
import { notice } from "./notice";

type Challenge = Schemas["ChallengeResource"];

const KIND: Record<string, string> = { "lost-heir": "Lost Heir", "cancellation-hearts": "Cancellation Hearts" };
const ASKED: Record<string, string> = {
  play_card: "play a card", play: "play a card", bid: "bid or pass", decide: "accept or reject the bid", name_trumps: "name trumps",
  pass_cards: "choose cards to pass", discard: "discard from the kitty", moon: "choose how the moon counts",
};

export class Inbox {
  readonly element: HTMLElement;
  private badge: HTMLElement;
  private list: HTMLElement;
  private source: EventSource | null = null;
  private lastId = "";
  private running = false;
  /** My sent challenges pending at the last read: one of them accepted since means its game just started. */
  private sentPending = new Set<string>();

  constructor() {
    this.badge = h("span", { class: "badge", id: "turn-badge", "aria-live": "polite" });
    this.list = h("ul", { class: "inbox-list", id: "inbox-list" });
    const details = h("details", { class: "inbox" }, h("summary", {}, h("span", { class: "label" }, "Your turn "), h("span", { class: "sr-only" }, "games waiting for you: "), this.badge), this.list);
    this.element = details;
    this.element.hidden = true;
    // A table where I sit moved on: my waiting games may have changed.
    let timer: ReturnType<typeof setTimeout> | null = null;
    window.addEventListener("cardgames:turns", () => {
      if (!this.running || timer) return;
      timer = setTimeout(() => { timer = null; void this.refresh(); }, 300);
    });
    window.addEventListener(CHALLENGES_CHANGED, () => { if (this.running) void this.refresh(); });
  }

  start(): void {
    if (this.running || !token()) return;
    this.running = true;
    this.element.hidden = false;
    void this.refresh();
    void this.connect();
  }

  stop(): void {
    this.running = false;
    this.source?.close();
    this.source = null;
    this.lastId = "";
    this.sentPending.clear();
    this.element.hidden = true;
    notice.setWaiting(0);
  }

  private async connect(): Promise<void> {
    const ticket = await streamTicket();
    if (!this.running || !token()) return;
    if (!ticket) { setTimeout(() => void this.connect(), 2000); return; }
    const after = this.lastId ? `&after=${encodeURIComponent(this.lastId)}` : "";
    const es = new EventSource(`/v1/players/me/stream?ticket=${encodeURIComponent(ticket)}${after}`);
    this.source = es;
    const onEvent = (e: MessageEvent) => {
      if (e.lastEventId) this.lastId = e.lastEventId;
      void this.refresh();
    };
    for (const name of ["your_turn", "seat_taken", "game_started", "game_over", "challenge"]) es.addEventListener(name, onEvent);
    es.onopen = () => { this.element.classList.remove("offline"); };
    es.onerror = () => {
      this.element.classList.add("offline");
      // EventSource reconnects by itself (Last-Event-ID) while the ticket
      // lives; once it gives up (expired ticket), mint a new one and resume.
      if (es.readyState === EventSource.CLOSED && this.running && this.source === es) {
        setTimeout(() => { if (this.source === es) void this.connect(); }, 1000);
      }
    };
  }

  private async refresh(): Promise<void> {
    const [{ data }, sent] = await Promise.all([api.GET("/v1/players/me/inbox"), this.sentChallenges()]);
    if (!data) return;
    this.render(data.games, data.challenges, sent ?? []);
  }

  /** My sent challenges still pending; opens the game of one accepted since the last read. */
  private async sentChallenges(): Promise<Challenge[] | null> {
    const mine = me()?.player_id;
    const { data } = await api.GET("/v1/challenges");
    if (!data || !mine) return null;
    const sent = data.challenges.filter((c) => c.challenger.player_id === mine);
    const started = sent.find((c) => c.status === "accepted" && c.game_id && this.sentPending.has(c.id));
    const pending = sent.filter((c) => c.status === "pending");
    this.sentPending = new Set(pending.map((c) => c.id));
    if (started?.game_id) location.hash = `#/game/${started.game_id}`;
    return pending;
  }

  private render(games: YourTurn[], challenges: Challenge[], sent: Challenge[]): void {
    const waiting = games.length + challenges.length;
    this.badge.textContent = String(waiting);
    this.badge.classList.toggle("hot", waiting > 0);
    notice.setWaiting(games.length);
    const turns = games.map((g) => h("li", {}, h("a", { href: `#/game/${g.game_id}` }, `${KIND[g.kind] ?? g.kind}: ${ASKED[g.prompt ?? ""] ?? "your move"}`)));
    clear(this.list, waiting || sent.length
      ? [...challenges.map((c) => this.challengeEntry(c)), ...turns, ...sent.map((c) => this.sentEntry(c))]
      : h("li", { class: "muted" }, "nothing waiting"));
  }

  /** A challenge I sent, waiting for answers: who has not answered yet, and Withdraw (withdraw_challenge). */
  private sentEntry(c: Challenge): HTMLElement {
    const waitingFor = c.challenged.filter((p) => p.answer !== "accepted").map((p) => p.display_name);
    const problem = h("span", { class: "error", role: "alert" });
    const withdraw = async () => {
      const { data, error } = await api.DELETE("/v1/challenges/{challenge_id}", { params: { path: { challenge_id: c.id } } });
      if (!data) { problem.textContent = problemText(error); return; }
      void this.refresh();
    };
    return h("li", { class: "challenge sent", "data-sent-challenge": c.id },
      `Your ${KIND[c.kind] ?? c.kind} challenge: waiting for ${waitingFor.join(", ") || "the game to start"} `,
      h("button", { type: "button", class: "withdraw-challenge", onclick: () => void withdraw() }, "Withdraw"), " ", problem);
  }

  /** A challenge to answer: who asks, to what, and Accept / Decline (accept_challenge, decline_challenge). */
  private challengeEntry(c: Challenge): HTMLElement {
    const others = c.challenged.length > 1 ? ` with ${c.challenged.length - 1} more` : "";
    const problem = h("span", { class: "error", role: "alert" });
    const path = { params: { path: { challenge_id: c.id } } };
    const answer = async (accept: boolean) => {
      const { data, error } = accept
        ? await api.POST("/v1/challenges/{challenge_id}/accept", path)
        : await api.POST("/v1/challenges/{challenge_id}/decline", path);
      if (!data) { problem.textContent = problemText(error); return; }
      if (data.game_id) location.hash = `#/game/${data.game_id}`;
      void this.refresh();
    };
    return h("li", { class: "challenge", "data-challenge": c.id },
      `${c.challenger.display_name} challenges you${others} to ${KIND[c.kind] ?? c.kind} `,
      h("button", { type: "button", class: "primary accept-challenge", onclick: () => void answer(true) }, "Accept"), " ",
      h("button", { type: "button", class: "decline-challenge", onclick: () => void answer(false) }, "Decline"), " ", problem);
  }
}
