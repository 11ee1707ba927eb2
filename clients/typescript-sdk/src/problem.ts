// Problems (RFC 9457) as typed errors: every refusal of the server becomes a
// ProblemError carrying its stable `code` and, when a ruling refused it, the
// ruling's id in `rule` (LH-9, CH-6, G-3 …).
import type { components } from "./generated/api.js";

export type Problem = components["schemas"]["Problem"];
export type ProblemCode = components["schemas"]["ProblemCode"];

export class ProblemError extends Error {
  readonly status: number;
  /** The problem's stable code; a code newer than this SDK's document is kept as it came. */
  readonly code: ProblemCode | (string & {});
  readonly rule: string | null;
  readonly detail: string;
  readonly requestId: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfterSecs: number | null;

  constructor(status: number, body: unknown, retryAfterSecs: number | null = null) {
    const problem = asProblem(body);
    const code = problem?.code ?? (status >= 500 ? "http_error" : "http_error");
    const detail = problem?.detail ?? (typeof body === "string" && body !== "" ? body : `HTTP ${status}`);
    super(`${status} ${code}${problem?.rule ? ` (${problem.rule})` : ""}: ${detail}`);
    this.name = "ProblemError";
    this.status = status;
    this.code = code;
    this.rule = problem?.rule ?? null;
    this.detail = detail;
    this.requestId = problem?.request_id ?? null;
    this.retryAfterSecs = retryAfterSecs;
  }

  /** Reads a refused response's body (JSON problem or anything else). */
  static async fromResponse(response: Response): Promise<ProblemError> {
    const text = await response.text().catch(() => "");
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's page, say): kept as text in `detail`.
    }
    return new ProblemError(response.status, body, retryAfter(response));
  }
}

/** `Retry-After` in seconds, when present and numeric. */
export function retryAfter(response: Response): number | null {
  const value = response.headers.get("Retry-After");
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

function asProblem(body: unknown): Problem | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const candidate = body as Partial<Problem>;
  return typeof candidate.code === "string" && typeof candidate.status === "number" ? (candidate as Problem) : undefined;
}
