// Card faces drawn here as SVG, shown as <img src="data:image/svg+xml,…">:
// the page's CSP allows data: images (img-src 'self' data:) and nothing in
// them runs or loads (no fonts, no links). One face per card code, made
// once. Every face has its index in the top-left corner, where a fanned
// hand leaves it visible.
import { face, isStandard } from "./cards";
import { h } from "./dom";
import { CITIES, HEIR_CARDS } from "./names.gen";

const W = 60;
const H = 84;
const RED = "#c0262d";
const BLACK = "#1b1b1b";
const FONT = "font-family='system-ui,Arial,sans-serif' font-weight='700'";

/** Suit symbols in a 10x10 box. */
const PIP: Record<string, string> = {
  H: "<path d='M5 9.6C3.2 8 0 5.6 0 3.1A2.6 2.6 0 0 1 5 2a2.6 2.6 0 0 1 5 1.1C10 5.6 6.8 8 5 9.6Z'/>",
  D: "<path d='M5 0 9 5 5 10 1 5Z'/>",
  S: "<path d='M5 0C3.3 2 0 4 0 6.4a2.3 2.3 0 0 0 4.2 1.3L3.4 10h3.2l-.8-2.3A2.3 2.3 0 0 0 10 6.4C10 4 6.7 2 5 0Z'/>",
  C: "<circle cx='5' cy='2.6' r='2.4'/><circle cx='2.5' cy='6.3' r='2.4'/><circle cx='7.5' cy='6.3' r='2.4'/><path d='M4.3 5.5 3.5 10h3l-.8-4.5Z'/>",
};

function pip(suit: string, x: number, y: number, size: number, flip = false): string {
  const s = size / 10;
  const turn = flip ? ` rotate(180 5 5)` : "";
  return `<g transform='translate(${x - size / 2} ${y - size / 2}) scale(${s})${turn}'>${PIP[suit] ?? ""}</g>`;
}

// Pip layouts: [column (-1 left, 0 centre, 1 right), row 0..1 top to bottom].
const LAYOUT: Record<string, [number, number][]> = {
  "2": [[0, 0], [0, 1]],
  "3": [[0, 0], [0, 0.5], [0, 1]],
  "4": [[-1, 0], [1, 0], [-1, 1], [1, 1]],
  "5": [[-1, 0], [1, 0], [0, 0.5], [-1, 1], [1, 1]],
  "6": [[-1, 0], [1, 0], [-1, 0.5], [1, 0.5], [-1, 1], [1, 1]],
  "7": [[-1, 0], [1, 0], [0, 0.25], [-1, 0.5], [1, 0.5], [-1, 1], [1, 1]],
  "8": [[-1, 0], [1, 0], [0, 0.25], [-1, 0.5], [1, 0.5], [0, 0.75], [-1, 1], [1, 1]],
  "9": [[-1, 0], [1, 0], [-1, 1 / 3], [1, 1 / 3], [0, 0.5], [-1, 2 / 3], [1, 2 / 3], [-1, 1], [1, 1]],
  "10": [[-1, 0], [1, 0], [0, 1 / 6], [-1, 1 / 3], [1, 1 / 3], [-1, 2 / 3], [1, 2 / 3], [0, 5 / 6], [-1, 1], [1, 1]],
};

function frame(body: string, fill = "#fffdf8", stroke = "#8a8a8a"): string {
  return `<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 ${W} ${H}' width='${W}' height='${H}'>`
    + `<rect x='.5' y='.5' width='${W - 1}' height='${H - 1}' rx='5' fill='${fill}' stroke='${stroke}'/>${body}</svg>`;
}

/** The corner index, top-left and (turned) bottom-right. */
function corners(index: string, colour: string, mark: string, size = 14): string {
  const one = `<text x='4' y='${size + 1}' font-size='${size}' ${FONT} fill='${colour}' letter-spacing='-.5'>${index}</text>${mark}`;
  return `${one}<g transform='rotate(180 ${W / 2} ${H / 2})'>${one}</g>`;
}

function standardFace(card: string): string {
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  const colour = suit === "H" || suit === "D" ? RED : BLACK;
  const index = corners(rank, colour, pip(suit, rank === "10" ? 9.5 : 8, 23, 9));
  let centre: string;
  if (rank === "A") centre = pip(suit, W / 2, H / 2, 26);
  else if (rank === "J" || rank === "Q" || rank === "K") {
    centre = `<rect x='15' y='17' width='30' height='50' rx='3' fill='${colour}' fill-opacity='.09' stroke='${colour}' stroke-width='1.2'/>`
      + `<text x='30' y='44' font-size='22' ${FONT} fill='${colour}' text-anchor='middle'>${rank}</text>${pip(suit, 30, 56, 11)}`;
  } else {
    centre = (LAYOUT[rank] ?? []).map(([col, row]) => pip(suit, 30 + col * 11, 19 + row * 46, 11, row > 0.5)).join("");
  }
  return frame(`<g fill='${colour}'>${index}${centre}</g>`);
}

const CITY_COLOUR: Record<string, string> = { toronto: "#2757a6", winnipeg: "#b3261e", halifax: "#1f7a3a", montreal: "#7b3fa0" };
const RANK_INDEX: Record<string, string> = {
  mayor: "May", chief: "Chf", commissioner: "Com", detective: "Det", captain: "Cpt", sergeant: "Sgt", policeman: "PC",
};
/** How high each rank stands (LH-1): drawn as that many stars. */
const RANK_STARS: Record<string, number> = { mayor: 7, chief: 6, commissioner: 5, detective: 4, captain: 3, sergeant: 2, policeman: 1 };

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/'/g, "&apos;");
}

/** Centred lines of text, each at most about 12 letters wide. */
function lines(words: string, y: number, size: number, colour: string): string {
  const out: string[] = [];
  for (const word of words.split(" ")) {
    const last = out.length - 1;
    if (last >= 0 && (out[last]! + " " + word).length <= 11) out[last] += ` ${word}`;
    else out.push(word);
  }
  return out.map((line, i) => `<text x='30' y='${y + i * (size + 2)}' font-size='${size}' ${FONT} fill='${colour}' text-anchor='middle'>${escapeXml(line)}</text>`).join("");
}

function star(x: number, y: number, r: number): string {
  const p: string[] = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const d = i % 2 ? r * 0.45 : r;
    p.push(`${(x + d * Math.cos(a)).toFixed(1)} ${(y + d * Math.sin(a)).toFixed(1)}`);
  }
  return `<path d='M${p.join("L")}Z'/>`;
}

function cityFace(city: string, rank: string): string {
  const colour = CITY_COLOUR[city] ?? BLACK;
  const cityText = (CITIES as Record<string, string>)[city] ?? city;
  const rankText = ((HEIR_CARDS as Record<string, string>)[`${city}-${rank}`] ?? rank).replace(cityText, "").trim();
  const mark = `<circle cx='9' cy='24' r='5' fill='${colour}'/><text x='9' y='27' font-size='8' ${FONT} fill='#fff' text-anchor='middle'>${cityText.charAt(0)}</text>`;
  const stars = RANK_STARS[rank] ?? 0;
  const starRow = [...Array(stars).keys()].map((i) => star(30 + (i - (stars - 1) / 2) * 5.6, 35, 3)).join("");
  return frame(`<rect x='3' y='3' width='${W - 6}' height='${H - 6}' rx='3' fill='${colour}' fill-opacity='.08'/>`
    + corners(RANK_INDEX[rank] ?? rank, colour, mark, 12)
    + `<g fill='${colour}'>${starRow}</g>`
    + lines(rankText, 48, 8, BLACK)
    + `<text x='30' y='68' font-size='8.5' ${FONT} fill='${colour}' text-anchor='middle'>${escapeXml(cityText)}</text>`);
}

function heirFace(): string {
  const gold = "#9a6b00";
  const crown = `<path d='M17 42 14 28l8 6 8-10 8 10 8-6-3 14Z' fill='#e0a800' stroke='${gold}' stroke-width='1'/>`;
  return frame(corners("Heir", gold, "", 11) + crown + lines("Lost Heir", 55, 9, gold) + lines("highest trump", 70, 6.5, BLACK), "#fff3c4", gold);
}

function wrongBoyFace(): string {
  const ink = "#5b3a8a";
  const cap = `<circle cx='30' cy='36' r='11' fill='none' stroke='${ink}' stroke-width='2'/><text x='30' y='41' font-size='15' ${FONT} fill='${ink}' text-anchor='middle'>?</text>`;
  return frame(corners("WB", ink, "", 11) + cap + lines("Wrong Boy", 58, 9, ink) + lines("lowest trump", 72, 6.5, BLACK), "#ece4f7", ink);
}

function blankFace(): string {
  const ink = "#777";
  const hatch = [...Array(9).keys()].map((i) => `<path d='M${i * 8 - 10} 74 ${i * 8 + 14} 10' stroke='#ddd' stroke-width='1.4'/>`).join("");
  return frame(hatch + corners("—", ink, "", 12) + `<rect x='12' y='35' width='36' height='14' rx='2' fill='#fff'/>` + lines("Blank", 46, 10, ink), "#f4f4f4", "#999");
}

function svgFor(card: string): string {
  if (card === "#back") return backFace();
  if (isStandard(card)) return standardFace(card);
  if (card === "heir") return heirFace();
  if (card === "wrong-boy") return wrongBoyFace();
  if (card === "blank") return blankFace();
  const [city, rank] = card.split("-");
  return cityFace(city ?? "", rank ?? "");
}

/** The back of every card: a lattice on dark red, the same for both decks. */
function backFace(): string {
  const lattice = [...Array(12).keys()].map((i) => `<path d='M${i * 8 - 36} 84 ${i * 8 + 24} 0M${i * 8 - 36} 0 ${i * 8 + 24} 84' stroke='#e8b4a8' stroke-opacity='.45' stroke-width='1'/>`).join("");
  return frame(`<defs><clipPath id='b'><rect x='4' y='4' width='${W - 8}' height='${H - 8}' rx='3'/></clipPath></defs>`
    + `<rect x='4' y='4' width='${W - 8}' height='${H - 8}' rx='3' fill='#8c1d2a'/><g clip-path='url(#b)'>${lattice}</g>`
    + `<rect x='4' y='4' width='${W - 8}' height='${H - 8}' rx='3' fill='none' stroke='#f3d9a4' stroke-width='1.5'/>`, "#fffdf8", "#6b1420");
}

const made = new Map<string, string>();

/** The card back as a data: URL. */
export function backUrl(): string {
  return faceUrl("#back");
}

/** The card's face as a data: URL, made once per card code. */
export function faceUrl(card: string): string {
  let url = made.get(card);
  if (!url) {
    url = `data:image/svg+xml,${encodeURIComponent(svgFor(card))}`;
    made.set(card, url);
  }
  return url;
}

/** A card as a non-interactive picture of its face, named once (its full name; `who` played it). */
export function chip(card: string, extra = "", who?: string): HTMLElement {
  const f = face(card);
  return h("span", { class: `card chip ${f.suit} ${extra}`.trimEnd(), title: f.name, role: "img", "aria-label": who ? `${who}: ${f.name}` : f.name, "data-card": card },
    h("img", { src: faceUrl(card), alt: "", draggable: "false", width: "60", height: "84" }));
}
