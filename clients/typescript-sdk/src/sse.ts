// A small Server-Sent Events reader over fetch: the parser of the HTML
// standard's "event stream interpretation" (fields `event`, `data`, `id`,
// `retry`, comments), and a follower that reconnects with backoff and
// resumes from the last `id:` received (`Last-Event-ID`), so a consumer sees
// every event once across dropped connections and server restarts.
import { ProblemError, retryAfter } from "./problem.js";
import { backoffMs, sleep } from "./retry.js";

/** One dispatched SSE event, as it came off the wire. */
export interface RawEvent {
  /** `event:`; "message" when the frame named none. */
  event: string;
  /** The last `id:` seen so far on this connection (SSE's "last event ID buffer"). */
  id: string | null;
  /** Whether this frame itself carried an `id:` field. */
  hasId: boolean;
  data: string;
}

/** Parses an event stream; yields frames with data, and id-only frames (data ""). */
export async function* parseEventStream(
  body: ReadableStream<Uint8Array>,
  onRetry: (ms: number) => void = () => undefined,
  signal?: AbortSignal,
): AsyncGenerator<RawEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  // A read pending when the signal fires ends at once: whether aborting a
  // fetch also errors its body's pending read differs between runtimes.
  const aborted = new Promise<{ value?: undefined; done: true }>((resolve) => {
    if (signal?.aborted) resolve({ done: true });
    signal?.addEventListener("abort", () => resolve({ done: true }), { once: true });
  });
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | null = null;
  let hasId = false;
  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), aborted]);
      if (signal?.aborted) return;
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const end = lineEnd(buffer, done);
        if (end === null) break;
        const line = buffer.slice(0, end.at);
        buffer = buffer.slice(end.at + end.length);
        if (line === "") {
          if (data.length > 0 || hasId) yield { event: event || "message", id, hasId, data: data.join("\n") };
          event = "";
          data = [];
          hasId = false;
          continue;
        }
        if (line.startsWith(":")) continue; // a comment: a heartbeat
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        let text = colon < 0 ? "" : line.slice(colon + 1);
        if (text.startsWith(" ")) text = text.slice(1);
        if (field === "event") event = text;
        else if (field === "data") data.push(text);
        else if (field === "id" && !text.includes("\0")) {
          id = text;
          hasId = true;
        } else if (field === "retry" && /^\d+$/.test(text)) onRetry(Number(text));
      }
      if (done) return; // an event not ended by a blank line is dropped, as the standard says
    }
  } finally {
    // Not awaited: a cancel may wait on the network, and the caller is done.
    void reader.cancel().catch(() => undefined);
  }
}

function lineEnd(buffer: string, final: boolean): { at: number; length: number } | null {
  const at = buffer.search(/[\r\n]/);
  if (at < 0) return null;
  if (buffer[at] === "\r") {
    // A lone \r at the very end may be the first half of \r\n: wait for more.
    if (at === buffer.length - 1 && !final) return null;
    return { at, length: buffer[at + 1] === "\n" ? 2 : 1 };
  }
  return { at, length: 1 };
}

export interface FollowOptions {
  /** Resume after this id (as `Last-Event-ID`). */
  lastEventId?: string;
  signal?: AbortSignal;
  /** First reconnect wait (default 250 ms), doubled per failed attempt. */
  minBackoffMs?: number;
  /** Longest reconnect wait (default 15 s). */
  maxBackoffMs?: number;
  /** Told of each reconnect: how many so far, and why. */
  onReconnect?: (reconnects: number, reason: string) => void;
}

/** Opens one connection, resuming after `lastEventId` when given. */
export type Connect = (lastEventId: string | undefined, signal: AbortSignal) => Promise<Response>;

/**
 * An endless, resumable stream of typed frames. Iterate it with `for await`;
 * it reconnects by itself and ends when the server says the stream is over
 * (204, or a frame `isFinal` accepts), on `close()`, or on the signal.
 * A refusal other than 429/5xx (a 401 after revocation, a 404) is thrown as
 * a ProblemError.
 */
export class EventStream<Frame> implements AsyncIterable<Frame> {
  /** The id to resume from: the last `id:` received. */
  lastEventId: string | undefined;
  /** Connections made after the first. */
  reconnects = 0;
  private readonly controller = new AbortController();
  private serverRetryMs = 0;

  constructor(
    private readonly connect: Connect,
    private readonly decode: (raw: RawEvent) => Frame | undefined,
    private readonly isFinal: (frame: Frame) => boolean,
    private readonly options: FollowOptions = {},
  ) {
    this.lastEventId = options.lastEventId;
    options.signal?.addEventListener("abort", () => this.controller.abort(), { once: true });
  }

  close(): void {
    this.controller.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Frame> {
    const signal = this.controller.signal;
    let failures = 0;
    for (let first = true; !signal.aborted; first = false) {
      if (!first) {
        const wait = Math.max(this.serverRetryMs / 4, backoffMs(failures, this.backoffPolicy()));
        await sleep(wait, signal);
        if (signal.aborted) return;
      }
      let response: Response;
      try {
        response = await this.connect(this.lastEventId, signal);
      } catch (error) {
        if (signal.aborted) return;
        failures += 1;
        this.reconnected(`connect failed: ${describe(error)}`);
        continue;
      }
      if (response.status === 204) return; // over, and the cursor is at its end
      if (!response.ok || response.body === null) {
        const problem = await ProblemError.fromResponse(response);
        if (!isTransient(response.status)) throw problem;
        failures += 1;
        const asked = retryAfter(response);
        if (asked !== null) await sleep(asked * 1000, signal);
        this.reconnected(`${problem.status} ${problem.code}`);
        continue;
      }
      let reason = "the server closed the stream";
      try {
        for await (const raw of parseEventStream(response.body, (ms) => (this.serverRetryMs = ms), signal)) {
          failures = 0;
          if (raw.hasId && raw.id !== null) this.lastEventId = raw.id;
          if (raw.data === "") continue; // an id alone: the position moved
          const frame = this.decode(raw);
          if (frame === undefined) continue;
          yield frame;
          if (this.isFinal(frame)) return;
        }
      } catch (error) {
        if (signal.aborted) return;
        reason = `connection lost: ${describe(error)}`;
        failures += 1;
      }
      this.reconnected(reason);
    }
  }

  private reconnected(reason: string): void {
    if (this.controller.signal.aborted) return;
    this.reconnects += 1;
    this.options.onReconnect?.(this.reconnects, reason);
  }

  private backoffPolicy(): { baseDelayMs: number; maxDelayMs: number } {
    return { baseDelayMs: this.options.minBackoffMs ?? 250, maxDelayMs: this.options.maxBackoffMs ?? 15_000 };
  }
}

function isTransient(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
