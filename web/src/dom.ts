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
