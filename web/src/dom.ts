// A few DOM helpers. Styles are classes only (the CSP has no 'unsafe-inline').
type Child = Node | string | null | undefined | false;
export type Children = Child | Children[];

function append(el: Element, children: Children[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(el, child);
    else if (child !== null && child !== undefined && child !== false) el.append(child);
  }
}
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Children[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === "function") {
      el.addEventListener(key.replace(/^on/, ""), value);
    } else if (key === "class") {
      el.className = String(value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

export function clear(el: Element, ...children: Children[]): void {
  el.replaceChildren();
  append(el, children);
}

/** "in 1:05", "0:00" */
export function countdown(deadline: string | null | undefined): string {
  if (!deadline) return "";
  const ms = Date.parse(deadline) - Date.now();
  const s = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(s / 86400);
  const hh = Math.floor((s % 86400) / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return d > 0 ? `${d}d ${hh}h ${two(mm)}m` : hh > 0 ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

const INTERACTIVE = new Set(["BUTTON", "INPUT", "SELECT", "TEXTAREA", "DETAILS"]);

/**
 * Makes `target`'s children look like `fresh`'s, keeping every node whose
 * markup did not change (so a card does not flicker, keep focus or move
 * under the pointer when a bot plays elsewhere). Interactive elements carry
 * their listeners' closures: they are kept only when identical, else
 * replaced whole.
 */
export function patchChildren(target: Element, fresh: Element): void {
  const next = [...fresh.childNodes];
  const old = [...target.childNodes];
  next.forEach((node, i) => {
    const current = old[i];
    if (!current) { target.append(node); return; }
    if (same(current, node)) return;
    if (current instanceof Element && node instanceof Element && current.tagName === node.tagName && !INTERACTIVE.has(node.tagName)) {
      for (const a of [...current.attributes]) if (!node.hasAttribute(a.name)) current.removeAttribute(a.name);
      for (const a of [...node.attributes]) if (current.getAttribute(a.name) !== a.value) current.setAttribute(a.name, a.value);
      patchChildren(current, node);
      return;
    }
    target.replaceChild(node, current);
  });
  for (const extra of old.slice(next.length)) extra.remove();
}

function same(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  if (a instanceof Element && b instanceof Element) return a.outerHTML === b.outerHTML;
  return a.textContent === b.textContent;
}
