// The one client: openapi-fetch over the types openapi-typescript generated
// from openapi/openapi.json (api.gen.ts). No request or response type is
// written by hand; these are names for the document's schemas.
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./api.gen";

export type Schemas = components["schemas"];
export type Game = Schemas["GameResource"];
export type Summary = Schemas["GameSummary"];
export type LegalMoves = Schemas["LegalMovesResource"];
export type Move = Schemas["Move"];
export type Problem = Schemas["Problem"];
export type YourTurn = Schemas["YourTurn"];
export type EventResource = Schemas["EventResource"];
export type LostHeirView = Schemas["LostHeirView"];
export type HeartsView = Schemas["CancellationHeartsView"];
export type HeirCard = Schemas["HeirCard"];
export type StandardCard = Schemas["StandardCard"];
export type Kind = Schemas["GameKindName"];

const TOKEN = "cardgames.token";
const ME = "cardgames.me";

export interface Me {
  player_id: string;
  display_name: string;
}

export function token(): string | null {
  return localStorage.getItem(TOKEN);
}

export function me(): Me | null {
  const raw = localStorage.getItem(ME);
  return raw ? (JSON.parse(raw) as Me) : null;
}

export function signIn(created: Schemas["PlayerCreated"]): void {
  localStorage.setItem(TOKEN, created.token);
  localStorage.setItem(ME, JSON.stringify({ player_id: created.player_id, display_name: created.display_name }));
}

export function signOut(): void {
  localStorage.removeItem(TOKEN);
  localStorage.removeItem(ME);
}

const auth: Middleware = {
  onRequest({ request }) {
    const t = token();
    if (t && !request.headers.has("Authorization")) request.headers.set("Authorization", `Bearer ${t}`);
    return request;
  },
};

export const UNREACHABLE = "the server could not be reached (it will be tried again)";

/** A network failure (the server restarting, the connection gone) as a problem answer, not a throw. */
async function safeFetch(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch {
    const problem = { type: "about:blank", title: "Service Unavailable", status: 503, detail: UNREACHABLE, code: "unavailable" };
    return new Response(JSON.stringify(problem), { status: 503, headers: { "content-type": "application/problem+json" } });
  }
}

export const api = createClient<paths>({ baseUrl: location.origin, fetch: safeFetch });
api.use(auth);

/** A spectator's client: never sends the token. */
export const publicApi = createClient<paths>({ baseUrl: location.origin, fetch: safeFetch });

/** A problem's text for people: its detail, and the ruling it cites. */
export function problemText(error: unknown): string {
  const p = error as Partial<Problem> | undefined;
  if (p && typeof p.detail === "string") {
    return p.rule && !p.detail.includes(p.rule) ? `${p.detail} (${p.rule})` : p.detail;
  }
  return "the server could not be reached";
}

/** A fresh 60 s stream ticket for EventSource (docs/streams.md). */
export async function streamTicket(): Promise<string | null> {
  if (!token()) return null;
  const { data } = await api.POST("/v1/stream-tickets");
  return data?.ticket ?? null;
}
