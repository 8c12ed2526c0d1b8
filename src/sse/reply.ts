/*
 * `sse()`: a reply whose body is a server-sent event stream, with the headers that keep every hop
 * between the handler and the client from caching, buffering or transforming it.
 */
import type { SetCookie } from "../cookies/set.js";
import { type Reply, type ReplyHeaders, reply } from "../reply.js";
import { retryLine } from "./frame.js";
import { type SseSource, SseStream } from "./stream.js";

/** Options of {@link sse}. */
export interface SseOptions {
  /**
   * Milliseconds of silence after which a heartbeat comment (`: heartbeat`) is sent, so proxies and
   * load balancers do not close an idle connection and a client that left is noticed; off unless
   * given. A heartbeat is also what sends the status and headers when the producer has nothing yet.
   */
  readonly heartbeat?: number;
  /** A `retry:` line sent first (with the first event or heartbeat): the client's reconnection delay in ms. */
  readonly retry?: number;
  /**
   * More headers. `content-type` (`text/event-stream`) and `x-accel-buffering` (`no`) are always the
   * stream's own; `cache-control` is `no-cache` unless given here.
   */
  readonly headers?: ReplyHeaders;
  /** Cookies to set, as {@link ReplyInit.cookies}. */
  readonly cookies?: readonly SetCookie[];
}

/** The headers of every SSE reply. */
const SSE_HEADERS = Object.freeze({
  "content-type": "text/event-stream",
  // nginx: do not buffer this response (it would hold the events back)
  "x-accel-buffering": "no",
});

/**
 * A server-sent events reply (`200`, `Content-Type: text/event-stream`, `Cache-Control: no-cache`,
 * `X-Accel-Buffering: no`) whose body is `source`'s messages, each framed as the WHATWG HTML spec says
 * and sent (written and flushed by every adapter) as soon as it is produced.
 *
 * `source` is an async iterable of messages (strings, `{ data, event?, id?, retry? }` events or
 * `{ comment }`), a plain iterable, a function `(signal) => iterable` whose `AbortSignal` aborts when the
 * stream stops, or a push producer from `sseChannel`. When the client leaves, the signal aborts, the
 * producer is told to return (an `async function*` runs its `finally`) and the heartbeat stops.
 *
 * The status and headers go out with the first event or heartbeat: a producer that throws before that
 * gets the client a 500 (and `onError` is told); one that throws later cuts the connection, which the
 * client sees as an error (an `EventSource` then reconnects). A message that cannot be framed safely — a
 * CR or LF in `event` or `id`, a NUL in `id`, a non-string `data` — is a `TypeError` that fails the
 * stream the same way: nothing of it is sent. Bad options are a `TypeError` or `RangeError` here.
 *
 * ```ts
 * route("GET /clock", (req) =>
 *   sse(async function* (signal) {
 *     let n = Number(lastEventId(req) ?? 0);
 *     while (!signal.aborted) {
 *       yield { id: String(++n), data: new Date().toISOString() };
 *       await new Promise((resolve) => setTimeout(resolve, 1000));
 *     }
 *   }, { heartbeat: 15_000 }),
 * );
 * ```
 */
export function sse(source: SseSource, options: SseOptions = {}): Reply {
  checkSource(source);
  const heartbeat = checkedHeartbeat(options.heartbeat);
  const retry = options.retry === undefined ? "" : retryLine(options.retry);
  const given = options.headers ?? {};
  const cacheControl = Object.keys(given).some((name) => name.toLowerCase() === "cache-control");
  const headers: Record<string, string | readonly string[]> = {};
  for (const name of Object.keys(given)) {
    if (!(name.toLowerCase() in SSE_HEADERS)) headers[name] = given[name]!;
  }
  if (!cacheControl) headers["cache-control"] = "no-cache";
  return reply({
    status: 200,
    headers: { ...headers, ...SSE_HEADERS },
    cookies: options.cookies,
    body: new SseStream(source, { heartbeat, retry }),
  });
}

function checkSource(source: unknown): void {
  if (typeof source === "function") return;
  if (
    typeof source === "object" &&
    source !== null &&
    (typeof (source as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === "function" ||
      typeof (source as Partial<Iterable<unknown>>)[Symbol.iterator] === "function")
  )
    return;
  throw new TypeError(
    `sse: the source must be an async iterable, an iterable or a function returning one, got ${
      typeof source === "string"
        ? "a string (to send one message: sse([text]))"
        : source === null
          ? "null"
          : typeof source
    }`,
  );
}

function checkedHeartbeat(heartbeat: unknown): number | undefined {
  if (heartbeat === undefined) return undefined;
  if (typeof heartbeat !== "number" || !Number.isFinite(heartbeat) || heartbeat <= 0 || heartbeat > 2 ** 31 - 1)
    throw new RangeError(`sse: heartbeat must be a number of milliseconds from 1 to 2^31-1, got ${String(heartbeat)}`);
  return heartbeat;
}
