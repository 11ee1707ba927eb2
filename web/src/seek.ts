// Quick play's ask (docs/quick-play.md): "Play now" seeks a table of the
// kind picked with sensible defaults (every table size of the kind, any
// variant, target, rating and clock, bots after two minutes so that a lone
// player still gets a game); the options are a disclosure away. Used by the
// front door and the lobby; the wait itself is waiting.ts.
import { api, problemText, type Kind, type Schemas } from "./api";
import { clear, h } from "./dom";

type SeekRequest = Schemas["CreateSeekRequest"];
type Variant = Schemas["SeekVariant"];

/** Each kind's table sizes (LH-2, CH-1) and variant groups as the form offers them. */
const KINDS: Record<Kind, { name: string; min: number; max: number; groups: VariantGroup[] }> = {
  "lost-heir": {
    name: "Lost Heir", min: 2, max: 4,
    groups: [
      { id: "contract", label: "Whose contract a bid is", options: [["dealer_contract", "the dealer's (LH-6)"], ["bidder_contract", "the bidder's (LH-13)"]] },
      { id: "partners", label: "At four players", options: [["partnerships", "partners, 0+2 against 1+3 (LH-3)"], ["no_partnerships", "everyone for themselves"]] },
    ],
  },
  "cancellation-hearts": {
    name: "Cancellation Hearts", min: 6, max: 10,
    groups: [
      { id: "all-cancelled", label: "When every card of the suit led is cancelled", options: [["extend", "the trick goes round again (CH-8)"], ["carry_over", "it is set aside for the next trick (CH-9)"]] },
    ],
  },
};
interface VariantGroup { id: string; label: string; options: [Variant, string][] }

/** The bots' default wait: long enough for people to come, short enough to play soon. */
export const BOTS_AFTER_MINUTES = 2;

const CLOCKS: [string, string][] = [
  ["", "any"], ["0", "no clock"], ["60", "1 minute a move"], ["600", "10 minutes a move"],
  ["3600", "1 hour a move"], ["86400", "1 day a move"],
];

export interface SeekForm {
  /** The game picker (placed by the caller: it is the "Game" field of its form). */
  kind: HTMLSelectElement;
  /** The options, closed until opened. */
  options: HTMLDetailsElement;
  /** The request the form says now. */
  request(): SeekRequest;
}

/** A labelled number input (empty: any). */
function numberField(id: string, label: string, attrs: Record<string, string | number>): [HTMLElement, HTMLInputElement] {
  const input = h("input", { id, name: id, type: "number", inputmode: "numeric", ...attrs });
  return [h("div", { class: "field" }, h("label", { for: id }, label), input), input];
}

function selectField(id: string, label: string, options: [string, string][]): [HTMLElement, HTMLSelectElement] {
  const select = h("select", { id, name: id }, options.map(([value, text]) => h("option", { value }, text)));
  return [h("div", { class: "field" }, h("label", { for: id }, label), select), select];
}

/**
 * The seek's form: the kind, and under "Table options" the sizes, target,
 * variants, rated, rating range, clock and the bots fallback. `prefix`
 * keeps ids unique where two forms could meet.
 */
export function seekForm(prefix: string, kind: Kind = "cancellation-hearts"): SeekForm {
  const id = (s: string) => `${prefix}-${s}`;
  const kindSelect = h("select", { id: id("kind"), name: "kind" },
    (Object.keys(KINDS) as Kind[]).map((k) => h("option", { value: k, selected: k === kind }, `${KINDS[k].name} (${KINDS[k].min}-${KINDS[k].max} players)`)));
  const [minRow, minPlayers] = numberField(id("min"), "Fewest players", { min: 2, max: 10 });
  const [maxRow, maxPlayers] = numberField(id("max"), "Most players", { min: 2, max: 10 });
  const [targetRow, target] = numberField(id("target"), "Target score", { placeholder: "any" });
  const variantsBox = h("div", { class: "seek-variants" });
  const variantSelects: HTMLSelectElement[] = [];
  const [ratedRow, rated] = selectField(id("rated"), "Rated", [["", "either"], ["true", "rated"], ["false", "unrated"]]);
  const [ratingMinRow, ratingMin] = numberField(id("rating-min"), "Opponents rated from", { placeholder: "any", step: 50 });
  const [ratingMaxRow, ratingMax] = numberField(id("rating-max"), "Opponents rated up to", { placeholder: "any", step: 50 });
  const [clockRow, clock] = selectField(id("clock"), "Time per move", CLOCKS);
  const bots = h("input", { id: id("bots"), name: "bots", type: "checkbox", checked: true });
  const [afterRow, after] = numberField(id("bots-after"), "After how many minutes", { min: 0, max: 59, value: BOTS_AFTER_MINUTES });
  const [levelRow, level] = selectField(id("bots-level"), "The bots play", [["sensible", "sensibly"], ["expert", "expertly (slower)"], ["random", "at random"]]);
  const [humansRow, humans] = numberField(id("min-humans"), "Only with at least this many people", { min: 1, max: 10, value: 1 });
  const botsBox = h("fieldset", { class: "seek-bots" },
    h("legend", {}, h("label", {}, bots, " Fill empty seats with bots if not enough people come")),
    h("div", { class: "seek-bots-grid" }, afterRow, levelRow, humansRow));
  const syncBots = () => { for (const el of [after, level, humans]) el.disabled = !bots.checked; };
  bots.addEventListener("change", syncBots);

  const onKind = () => {
    const k = KINDS[kindSelect.value as Kind];
    for (const input of [minPlayers, maxPlayers]) { input.min = String(k.min); input.max = String(k.max); }
    minPlayers.value = String(k.min);
    maxPlayers.value = String(k.max);
    humans.max = String(k.max);
    variantSelects.length = 0;
    clear(variantsBox, k.groups.map((g) => {
      const [row, select] = selectField(id(g.id), g.label, [["", "any"], ...g.options]);
      variantSelects.push(select);
      return row;
    }));
  };
  kindSelect.addEventListener("change", onKind);
  onKind();
  syncBots();

  const options = h("details", { class: "seek-options", id: id("options") },
    h("summary", {}, "Table options"),
    h("div", { class: "seek-grid" }, minRow, maxRow, targetRow, variantsBox, ratedRow, ratingMinRow, ratingMaxRow, clockRow),
    botsBox);

  const num = (input: HTMLInputElement) => (input.value.trim() === "" ? undefined : Number(input.value));
  const request = (): SeekRequest => {
    const body: SeekRequest = { kind: kindSelect.value as Kind };
    const min = num(minPlayers);
    const max = num(maxPlayers);
    if (min !== undefined && max !== undefined) body.players = { min, max };
    const t = num(target);
    if (t !== undefined) body.target = t;
    const variants = variantSelects.map((s) => s.value).filter(Boolean) as Variant[];
    if (variants.length) body.variants = variants;
    if (rated.value) body.rated = rated.value === "true";
    const lo = num(ratingMin);
    const hi = num(ratingMax);
    if (lo !== undefined || hi !== undefined) body.rating_range = { ...(lo !== undefined ? { min: lo } : {}), ...(hi !== undefined ? { max: hi } : {}) };
    if (clock.value) body.move_deadline_secs = Number(clock.value);
    if (bots.checked) {
      body.bots = {
        after_secs: Math.round((num(after) ?? BOTS_AFTER_MINUTES) * 60),
        level: level.value as Schemas["BotLevel"],
        min_humans: num(humans) ?? 1,
      };
    }
    return body;
  };
  return { kind: kindSelect, options, request };
}

/**
 * Seeks a table: to the table at once when this seek completed one, else
 * to its waiting screen. A problem's text if refused.
 */
export async function startSeek(body: SeekRequest): Promise<string | null> {
  const { data, error } = await api.POST("/v1/seeks", { body });
  if (!data) return problemText(error);
  location.hash = data.status === "matched" && data.game_id ? `#/game/${data.game_id}` : `#/seek/${data.id}`;
  return null;
}

/** "Lost Heir, 2-4 players" */
export function seekTitle(s: Pick<Schemas["SeekResource"], "kind" | "players">): string {
  const name = KINDS[s.kind as Kind]?.name ?? s.kind;
  const sizes = s.players.min === s.players.max ? `${s.players.min} players` : `${s.players.min}-${s.players.max} players`;
  return `${name}, ${sizes}`;
}

/** The names of a seek's variants, as the form offers them. */
export function variantText(kind: string, variant: string): string {
  for (const g of KINDS[kind as Kind]?.groups ?? []) {
    const found = g.options.find(([v]) => v === variant);
    if (found) return found[1];
  }
  return variant;
}

/**
 * The player's active seeks, each a line back to its waiting screen
 * ("You are seeking Lost Heir, 2-4 players: back to the waiting screen");
 * nothing when there are none.
 */
export async function activeSeeks(): Promise<HTMLElement | null> {
  const { data } = await api.GET("/v1/seeks", { params: { query: { status: "active", limit: 5 } } });
  if (!data?.seeks.length) return null;
  return h("ul", { class: "seeking", id: "seeking" }, data.seeks.map((s) => h("li", {},
    `You are seeking ${seekTitle(s)}: `, h("a", { href: `#/seek/${s.id}`, "data-seek": s.id }, "back to the waiting screen"))));
}
