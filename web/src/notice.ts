// Getting noticed when it is my turn: the tab's title and icon change (the
// table's own turn, or games waiting in the inbox); optionally a short tone
// (Web Audio: no sound file) and a desktop notification, each off until
// the player turns it on; the notification asks the browser's permission
// only then, and only shows while the tab is hidden. Settings stay in
// localStorage.
import { h } from "./dom";

const SOUND = "cardgames.sound";
const NOTIFY = "cardgames.notify";
const BASE_TITLE = "Card table";

/** The tab icon: a green card, with a gold dot when something waits for me. */
function icon(hot: boolean): string {
  const dot = hot ? "<circle cx='24' cy='8' r='7' fill='#f5b700' stroke='#173d27' stroke-width='2'/>" : "";
  const svg = `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect x='5' y='3' width='20' height='27' rx='3' fill='#fffdf8' stroke='#173d27' stroke-width='2'/><path d='M15 10c-2 3-5 5-5 8a3 3 0 0 0 5 2l-1 4h2l-1-4a3 3 0 0 0 5-2c0-3-3-5-5-8Z' fill='#1f5f3a'/>${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

class Notice {
  private page = "";
  private tableTurn: string | null = null;
  private waiting = 0;
  private link: HTMLLinkElement;
  private audio: AudioContext | null = null;

  constructor() {
    this.link = document.querySelector<HTMLLinkElement>("link[rel=icon]") ?? h("link", { rel: "icon" });
    if (!this.link.isConnected) document.head.append(this.link);
    this.show();
  }

  /** The page's own name ("Lost Heir"), shown after the turn marker. */
  setPage(name: string): void {
    this.page = name;
    this.tableTurn = null;
    this.show();
  }

  /** The open table's turn: `what` ("play a card") while it is mine, else null. Sounds and notifies as it begins. */
  setTableTurn(what: string | null): void {
    const began = what !== null && this.tableTurn === null;
    this.tableTurn = what;
    this.show();
    if (began) this.alert(what);
  }

  /** Games waiting for me anywhere (the inbox). */
  setWaiting(count: number): void {
    this.waiting = count;
    this.show();
  }

  private show(): void {
    const hot = this.tableTurn !== null || this.waiting > 0;
    const mark = this.tableTurn !== null ? "▶ Your turn · " : this.waiting > 0 ? `(${this.waiting}) ` : "";
    document.title = `${mark}${this.page ? `${this.page} · ` : ""}${BASE_TITLE}`;
    const href = icon(hot);
    if (this.link.getAttribute("href") !== href) this.link.setAttribute("href", href);
    document.documentElement.dataset.turn = hot ? "yes" : "no";
  }

  private alert(what: string): void {
    if (soundOn()) this.beep();
    if (notifyOn() && document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification("Your turn", { body: `${this.page || BASE_TITLE}: ${what}`, tag: "cardgames-turn" });
    }
  }

  /** Two short soft notes. */
  private beep(): void {
    try {
      this.audio ??= new AudioContext();
      const ctx = this.audio;
      [660, 880].forEach((freq, i) => {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        const at = ctx.currentTime + i * 0.14;
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
        osc.connect(gain).connect(ctx.destination);
        osc.start(at);
        osc.stop(at + 0.13);
      });
    } catch {
      // No audio here: the title and icon still say it.
    }
  }
}

function soundOn(): boolean {
  return localStorage.getItem(SOUND) === "on";
}

function notifyOn(): boolean {
  return localStorage.getItem(NOTIFY) === "on";
}

export const notice = new Notice();

/** A bell drawn as SVG elements (no font needed). */
function bell(): SVGSVGElement {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "15");
  svg.setAttribute("height", "15");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "bell");
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M8 1.5a1 1 0 0 1 1 1v.6A4.5 4.5 0 0 1 12.5 7.5v3l1.5 2v.5H2v-.5l1.5-2v-3A4.5 4.5 0 0 1 7 3.1v-.6a1 1 0 0 1 1-1ZM6.3 14h3.4a1.7 1.7 0 0 1-3.4 0Z");
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  return svg;
}

/** The header's settings: a tone and a desktop notification on my turn, both off until chosen. */
export function alertSettings(): HTMLElement {
  const status = h("p", { class: "muted small", id: "alert-status", "aria-live": "polite" });
  const sound = h("input", { type: "checkbox", id: "alert-sound", checked: soundOn() });
  sound.addEventListener("change", () => {
    localStorage.setItem(SOUND, sound.checked ? "on" : "off");
    status.textContent = sound.checked ? "A short tone will play on your turn." : "";
  });
  const supported = "Notification" in window;
  const desk = h("input", { type: "checkbox", id: "alert-notify", checked: supported && notifyOn() && Notification.permission === "granted", disabled: !supported });
  desk.addEventListener("change", async () => {
    if (!desk.checked) { localStorage.setItem(NOTIFY, "off"); status.textContent = ""; return; }
    // Asked only now, because the player chose it.
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    const ok = answer === "granted";
    desk.checked = ok;
    localStorage.setItem(NOTIFY, ok ? "on" : "off");
    status.textContent = ok ? "You will be notified on your turn while this tab is in the background."
      : "The browser did not allow notifications (its site settings can change that).";
  });
  return h("details", { class: "alerts", id: "alerts" },
    h("summary", {}, bell(), h("span", { class: "label" }, " Alerts"), h("span", { class: "sr-only" }, "turn alerts")),
    h("div", { class: "alerts-box" },
      h("label", {}, sound, " Play a sound on my turn"),
      h("label", {}, desk, supported ? " Desktop notification on my turn" : " Desktop notifications (not supported by this browser)"),
      status));
}
