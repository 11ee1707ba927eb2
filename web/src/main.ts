// The web table: hash routes (#/ the lobby, or the front door when signed
// out; #/game/<id> a table; #/replay/<id> a finished game's replay;
// #/invite/<id> an open game's page, #/invite/<token> an invite link;
// #/seek/<id> quick play's waiting screen;
// #/rules/<kind> a game's rules), a header
// with the your-turn badge and the alert settings.
import "./style.css";
import { api, me, signOut } from "./api";
import { h, clear } from "./dom";
import { frontDoor } from "./front";
import { lobby } from "./lobby";
import { table } from "./table";
import { replay } from "./replay";
import { Inbox } from "./inbox";
import { invitePage, tokenInvitePage } from "./invite";
import { alertSettings, notice } from "./notice";
import { rulesPage } from "./rules";
import { waitingPage } from "./waiting";

const root = document.getElementById("app")!;
const main = h("main", { id: "main", tabindex: "-1" });
const inbox = new Inbox();
const who = h("span", { class: "who" });
const alerts = alertSettings();
const header = h(
  "header",
  { class: "top" },
  h("a", { href: "#/", class: "brand" }, "Card table"),
  h("nav", { class: "top-links", "aria-label": "rules" },
    h("a", { href: "#/rules/lost-heir" }, "Lost Heir rules"), h("a", { href: "#/rules/cancellation-hearts" }, "Hearts rules")),
  who,
  inbox.element,
  alerts,
);
clear(root, header, main);

let leave: (() => void) | null = null;

function renderWho(): void {
  const m = me();
  alerts.hidden = !m;
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

const signedIn = () => { renderWho(); inbox.start(); };

function route(): void {
  leave?.();
  leave = null;
  renderWho();
  inbox.start();
  notice.setPage("");
  const hash = location.hash.replace(/^#/, "") || "/";
  const game = /^\/game\/([0-9a-f-]{36})$/.exec(hash);
  const rep = /^\/replay\/([0-9a-f-]{36})$/.exec(hash);
  const inv = /^\/invite\/([0-9a-f-]{36})$/.exec(hash);
  const seek = /^\/seek\/([0-9a-f-]{36})$/.exec(hash);
  const link = /^\/invite\/([0-9a-f]{64})$/.exec(hash);
  const rules = /^\/rules\/(lost-heir|cancellation-hearts)$/.exec(hash);
  if (game?.[1]) leave = table(main, game[1]);
  else if (rep?.[1]) leave = replay(main, rep[1]);
  else if (inv?.[1]) leave = invitePage(main, inv[1], signedIn);
  else if (seek?.[1]) leave = waitingPage(main, seek[1]);
  else if (link?.[1]) leave = tokenInvitePage(main, link[1], signedIn);
  else if (rules?.[1]) leave = rulesPage(main, rules[1]);
  else if (!me()) leave = frontDoor(main, signedIn, route);
  else leave = lobby(main);
  main.focus({ preventScroll: true });
}

window.addEventListener("hashchange", () => { route(); window.scrollTo(0, 0); });
route();
