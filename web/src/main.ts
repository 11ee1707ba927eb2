// The web table: hash routes (#/ lobby, #/game/<id> a table, #/replay/<id>
// a finished game's replay), a header with the your-turn badge.
import "./style.css";
import { api, me, signOut } from "./api";
import { h, clear } from "./dom";
import { lobby } from "./lobby";
import { table } from "./table";
import { replay } from "./replay";
import { Inbox } from "./inbox";

const root = document.getElementById("app")!;
const main = h("main", { id: "main" });
const inbox = new Inbox();
const who = h("span", { class: "who" });
const header = h(
  "header",
  { class: "top" },
  h("a", { href: "#/", class: "brand" }, "Card table"),
  who,
  inbox.element,
);
clear(root, header, main);

let leave: (() => void) | null = null;

function renderWho(): void {
  const m = me();
  clear(
    who,
    m
      ? [
          h("span", { "data-testid": "me" }, m.display_name),
          " ",
          h("button", { type: "button", class: "link", onclick: async () => {
            // Revoke the token on the server too (logout), then forget it here.
            await api.POST("/v1/players/me/logout").catch(() => undefined);
            signOut(); inbox.stop(); route();
          } }, "sign out"),
        ]
      : "",
  );
}

function route(): void {
  leave?.();
  leave = null;
  renderWho();
  inbox.start();
  const hash = location.hash.replace(/^#/, "") || "/";
  const game = /^\/game\/([0-9a-f-]{36})$/.exec(hash);
  const rep = /^\/replay\/([0-9a-f-]{36})$/.exec(hash);
  if (game?.[1]) leave = table(main, game[1]);
  else if (rep?.[1]) leave = replay(main, rep[1]);
  else leave = lobby(main, () => { renderWho(); inbox.start(); });
}

window.addEventListener("hashchange", route);
route();
