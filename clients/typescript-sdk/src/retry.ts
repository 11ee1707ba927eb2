// A fetch that retries what is safe to retry. Every request that changes
// something gets an `Idempotency-Key` (kept across its retries), so a retry
// after a lost answer returns the first answer instead of acting twice.
// Retried: network failures, 429 (rate_limited), 503 (unavailable, timeout),
// 502/504, and 409 idempotency_key_in_flight; each after `Retry-After` when
// the server sent one, else an exponential backoff with jitter.

export interface RetryPolicy {
  /** Attempts after the first (default 5). */
  retries: number;
  /** First backoff, doubled on each retry (default 200 ms). */
  baseDelayMs: number;
  /** Longest wait between two attempts (default 10 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 200, maxDelayMs: 10_000 };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const RETRIED_STATUS = new Set([429, 502, 503, 504]);

export type Fetch = (input: Request) => Promise<Response>;

export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Full jitter: a random wait up to the doubled delay, capped. */
export function backoffMs(attempt: number, policy: Pick<RetryPolicy, "baseDelayMs" | "maxDelayMs">): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.max(policy.baseDelayMs / 2, Math.random() * ceiling);
}

export function retryingFetch(inner: Fetch, policy: RetryPolicy = DEFAULT_RETRY): Fetch {
  return async (original: Request): Promise<Response> => {
    const headers = new Headers(original.headers);
    if (!SAFE_METHODS.has(original.method) && !headers.has("Idempotency-Key")) {
      headers.set("Idempotency-Key", newIdempotencyKey());
    }
    // The body is read once and sent again on each attempt.
    const body = original.body === null ? undefined : await original.arrayBuffer();
    for (let attempt = 0; ; attempt += 1) {
      const request = new Request(original.url, { method: original.method, headers, body, signal: original.signal });
      let response: Response;
      try {
        response = await inner(request);
      } catch (error) {
        if (attempt >= policy.retries || original.signal.aborted) throw error;
        await sleep(backoffMs(attempt, policy), original.signal);
        continue;
      }
      if (attempt >= policy.retries || !(await isRetried(response))) return response;
      const asked = response.headers.get("Retry-After");
      const wait = asked !== null && /^\d+$/.test(asked) ? Number(asked) * 1000 : backoffMs(attempt, policy);
      await response.body?.cancel().catch(() => undefined);
      await sleep(Math.min(wait, policy.maxDelayMs), original.signal);
    }
  };
}

async function isRetried(response: Response): Promise<boolean> {
  if (RETRIED_STATUS.has(response.status)) return true;
  if (response.status !== 409) return false;
  // A copy of this very request still in flight elsewhere: retry with the same key.
  const problem: unknown = await response.clone().json().catch(() => null);
  return typeof problem === "object" && problem !== null && (problem as { code?: unknown }).code === "idempotency_key_in_flight";
}
