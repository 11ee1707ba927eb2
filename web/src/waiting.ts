// The waiting screen of a seek, `#/seek/<id>` (quick play,
// docs/quick-play.md): what was asked, who has been found for the table
// (get_seek's `found`: counts only), how many seek the kind now
// (count_seekers), the countdown to the bots, and Cancel. The player
// stream's `seek_matched` moves the page to the table the moment it forms;
// get_seek, read again every few seconds, updates the counts and catches a
// table formed while the stream was away (also after a reload: the seek's
// id is in the address).
import { api, me, problemText, streamTicket, type Schemas } from "./api";
import { clear, countdown, h } from "./dom";
import { faceUrl } from "./faces";
import { seekTitle, startSeek, variantText } from "./seek";
import { KIND_NAME } from "./words";

type Seek = Schemas["SeekResource"];

/** How often the seek (its counts) and the seekers are read again. */
const SEEK_EVERY_MS = 3000;
const SEEKERS_EVERY_MS = 10_000;

const CLOCK: Record<number, string> = { 0: "no clock", 60: "1 minute a move", 600: "10 minutes a move", 3600: "1 hour a move", 86400: "1 day a move" };
/** The cards fanned over the waiting screen, per kind (as on the front door). */
const FAN: Record<string, string[]> = { "lost-heir": ["heir", "toronto-mayor", "wrong-boy"], "cancellation-hearts": ["QS", "9D", "AH"] };
const LEVEL: Record<string, string> = { sensible: "sensible", expert: "expert", random: "random" };

export function waitingPage(main: HTMLElement, id: string): () => void {
  let alive = true;
  let seek: Seek | null = null;
  let source: EventSource | null = null;
  const timers: ReturnType<typeof setInterval>[] = [];
  const box = h("section", { class: "card-panel waiting", id: "waiting", "aria-labelledby": "waiting-title" },
    h("h1", { id: "waiting-title" }, "Finding players…"));
  clear(main, box);
  if (!me()) {
    clear(box, h("h1", { id: "waiting-title" }, "Quick play"),
      h("p", {}, "You are signed out here, so this seek is not yours to follow. "), h("a", { href: "#/" }, "Go to the front door"));
    return () => {};
  }

  const headline = h("h1", { id: "waiting-title" });
  const seats = h("div", { class: "seat-dots", id: "seat-dots", "aria-hidden": "true" });
  const found = h("p", { class: "found", id: "found", role: "status" });
  const clock = h("p", { class: "countdown", id: "countdown", role: "timer", "aria-live": "off" });
  const seekers = h("p", { class: "muted", id: "seekers" });
  const asked = h("dl", { class: "seek-asked", id: "seek-asked" });
  const problem = h("p", { class: "error", role: "alert", id: "waiting-problem" });
  const cancel = h("button", { type: "button", id: "cancel-seek", onclick: () => void doCancel() }, "Cancel");
  const actions = h("div", { class: "waiting-actions" }, cancel, h("a", { href: "#/", id: "waiting-lobby" }, "Back to the lobby (the seek keeps waiting)"));
  const fan = h("div", { class: "waiting-fan", "aria-hidden": "true" });

  function toTable(gameId: string): void {
    if (alive) location.hash = `#/game/${gameId}`;
  }

  async function read(): Promise<void> {
    const { data, error } = await api.GET("/v1/seeks/{seek_id}", { params: { path: { seek_id: id } } });
    if (!alive) return;
    if (!data) {
      if (!seek) clear(box, h("h1", { id: "waiting-title" }, "Quick play"), h("p", { class: "error", role: "alert" }, problemText(error)), h("a", { href: "#/" }, "Back to the lobby"));
      return;
    }
    seek = data;
    if (data.status === "matched" && data.game_id) { toTable(data.game_id); return; }
    render();
  }

  async function readSeekers(): Promise<void> {
    const { data } = await api.GET("/v1/seekers");
    if (!alive || !data || !seek) return;
    const n = data.kinds.find((k) => k.kind === seek?.kind)?.seekers ?? 0;
    const kind = KIND_NAME[seek.kind] ?? seek.kind;
    say(seekers, n <= 1 ? `Nobody else is looking for ${kind} right now.` : `${n} players are looking for ${kind} right now.`);
  }

  async function doCancel(): Promise<void> {
    cancel.disabled = true;
    const { data, error } = await api.DELETE("/v1/seeks/{seek_id}", { params: { path: { seek_id: id } } });
    if (!alive) return;
    cancel.disabled = false;
    if (data) { seek = data; render(); return; }
    // A table formed a moment before: the seat stands, so go and sit.
    if ((error as { code?: string } | undefined)?.code === "seek_matched") { await read(); return; }
    problem.textContent = problemText(error);
  }

  function render(): void {
    if (!seek) return;
    const kind = KIND_NAME[seek.kind] ?? seek.kind;
    if (seek.status !== "active") { renderEnded(seek); return; }
    headline.textContent = `Finding players for ${kind}`;
    renderFound(seek);
    tick();
    clear(asked, askedRows(seek));
    if (!box.contains(headline)) {
      clear(fan, (FAN[seek.kind] ?? []).map((c, i) => h("img", { class: `fan-card fan-${i}`, src: faceUrl(c), alt: "" })));
      clear(box, fan, headline, h("p", { class: "muted" }, `${seekTitle(seek)}. You will be seated as soon as the table forms.`),
        seats, found, clock, seekers, h("details", { class: "seek-asked-box" }, h("summary", {}, "What you asked for"), asked), actions, problem);
    }
  }

  /** The seats of the table as it stands: people found filled, the rest empty. */
  function renderFound(s: Seek): void {
    const f = s.found;
    if (!f) {
      say(found, "Looking for players who want the same table…");
      clear(seats);
      return;
    }
    const others = f.humans - 1;
    const size = f.humans >= f.smallest ? f.largest : f.smallest;
    clear(seats, Array.from({ length: size }, (_, i) => h("span", { class: i < f.humans ? (i === 0 ? "dot me" : "dot in") : "dot" })));
    const more = f.smallest - f.humans;
    const who = others === 0 ? "Just you so far" : `You and ${others} other player${others === 1 ? "" : "s"}`;
    const next = more > 0
      ? `${more} more needed for a table of ${f.smallest}.`
      : f.humans < f.largest
        ? `Enough for a table of ${f.humans}: it starts when nobody else comes for a moment, or at once at ${f.largest}.`
        : "The table is full: it starts now.";
    say(found, `${who}. ${next}`);
    seats.dataset.found = String(f.humans);
  }

  /** The countdown to the bots (or to the seek's end). */
  function tick(): void {
    if (!seek || seek.status !== "active") return;
    const botsAt = seek.bots?.at;
    if (botsAt && Date.parse(botsAt) > Date.now()) {
      clock.textContent = `Bots fill the empty seats in ${countdown(botsAt)}`;
    } else if (botsAt) {
      const need = seek.bots?.min_humans ?? 1;
      clock.textContent = need > 1 ? `Bots may come now, once ${need} people are here.` : "Bots are taking the empty seats…";
    } else {
      clock.textContent = `No bots: the seek waits ${countdown(seek.expires_at)} more for people.`;
    }
  }

  function renderEnded(s: Seek): void {
    const ended = s.status === "cancelled" ? "You cancelled this seek." : "Nobody came in time: this seek expired.";
    const again = h("button", { type: "button", class: "primary", id: "seek-again", onclick: async () => {
      again.disabled = true;
      const refused = await startSeek(requestOf(s));
      if (refused) { again.disabled = false; problem.textContent = refused; }
    } }, "Seek again");
    clear(box, h("h1", { id: "waiting-title" }, `Quick play: ${KIND_NAME[s.kind] ?? s.kind}`),
      h("p", { id: "seek-ended", "data-status": s.status }, ended),
      h("div", { class: "waiting-actions" }, again, h("a", { href: "#/" }, "Back to the lobby")), problem);
    stop();
  }

  async function follow(): Promise<void> {
    const ticket = await streamTicket();
    if (!alive) return;
    if (!ticket) { setTimeout(() => { if (alive) void follow(); }, 2000); return; }
    const es = new EventSource(`/v1/players/me/stream?ticket=${encodeURIComponent(ticket)}`);
    source = es;
    es.addEventListener("seek_matched", (e) => {
      const m = JSON.parse((e as MessageEvent<string>).data) as Schemas["SeekMatched"];
      if (m.seek_id === id) toTable(m.game_id);
    });
    // Once the browser gives up (the ticket expired), a new ticket; get_seek covers the gap.
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED && alive && source === es) setTimeout(() => { if (alive && source === es) void follow(); }, 1000);
    };
  }

  function stop(): void {
    for (const t of timers) clearInterval(t);
    timers.length = 0;
    source?.close();
    source = null;
  }

  void (async () => {
    await read();
    // (read() set it: TypeScript cannot see that through the closure.)
    const first = seek as Seek | null;
    if (!alive || first?.status !== "active") return;
    void readSeekers();
    void follow();
    timers.push(setInterval(tick, 1000), setInterval(() => void read(), SEEK_EVERY_MS), setInterval(() => void readSeekers(), SEEKERS_EVERY_MS));
  })();
  return () => { alive = false; stop(); };
}

/** Sets `el`'s text only when it changes (a live region re-announces every write). */
function say(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** The seek's options as sentences. */
function askedRows(s: Seek): HTMLElement[] {
  const rows: [string, string][] = [
    ["Game", KIND_NAME[s.kind] ?? s.kind],
    ["Players", s.players.min === s.players.max ? String(s.players.min) : `${s.players.min} to ${s.players.max}`],
    ["Target score", s.target === null || s.target === undefined ? "any" : String(s.target)],
    ["Variants", s.variants.length ? s.variants.map((v) => variantText(s.kind, v)).join("; ") : "any"],
    ["Rated", s.rated === null || s.rated === undefined ? "either" : s.rated ? "rated" : "unrated"],
    ["Opponents' ratings", s.rating_range ? `${s.rating_range.min ?? "any"} to ${s.rating_range.max ?? "any"}` : "any"],
    ["Time per move", s.move_deadline_secs === null || s.move_deadline_secs === undefined ? "any" : CLOCK[s.move_deadline_secs] ?? `${s.move_deadline_secs} s a move`],
    ["Bots", s.bots ? `${LEVEL[s.bots.level] ?? s.bots.level} bots after ${minutes(botsWait(s))}${s.bots.min_humans > 1 ? `, with at least ${s.bots.min_humans} people` : ""}` : "never"],
  ];
  return rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]);
}

/** Seconds from the seek to its bots. */
function botsWait(s: Seek): number {
  return s.bots ? Math.max(0, Math.round((Date.parse(s.bots.at) - Date.parse(s.created_at)) / 1000)) : 0;
}

/** "2 minutes", "90 seconds", "1 minute" */
function minutes(secs: number): string {
  if (secs % 60 !== 0) return `${secs} seconds`;
  return secs === 60 ? "1 minute" : `${secs / 60} minutes`;
}

/** The request that asks for what `s` asked (Seek again). */
function requestOf(s: Seek): Schemas["CreateSeekRequest"] {
  const wait = botsWait(s);
  return {
    kind: s.kind,
    players: s.players,
    ...(s.target !== null && s.target !== undefined ? { target: s.target } : {}),
    ...(s.variants.length ? { variants: s.variants } : {}),
    ...(s.rated !== null && s.rated !== undefined ? { rated: s.rated } : {}),
    ...(s.rating_range ? { rating_range: s.rating_range } : {}),
    ...(s.move_deadline_secs !== null && s.move_deadline_secs !== undefined ? { move_deadline_secs: s.move_deadline_secs } : {}),
    ...(s.bots ? { bots: { after_secs: wait, level: s.bots.level, min_humans: s.bots.min_humans } } : {}),
  };
}
