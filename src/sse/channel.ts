/*
 * The push form of an SSE producer: for sources that call back (a pub/sub subscription, an event
 * emitter) rather than being iterated. Messages sent are queued and read by the stream in order;
 * the clean-up `start` returns runs once, whenever the stream ends.
 */
import { type SseMessage, sseFrame } from "./frame.js";
import type { SseSource } from "./stream.js";

/** What a push producer ({@link sseChannel}) is handed. */
export interface SseChannel {
  /**
   * Queues a message to send; `true` when queued, `false` when the stream is over (the client left,
   * or `close`/`fail` was called): a subscription can unsubscribe on `false`. A message that cannot be
   * framed (a line break in `event`, …) is a `TypeError` thrown here, and nothing is queued. The queue
   * is not bounded: a producer much faster than its client should await its own pacing.
   */
  send(message: SseMessage): boolean;
  /** Ends the stream once the messages queued are sent. */
  close(): void;
  /**
   * Fails the stream once the messages queued are sent: before the first chunk the client gets a 500,
   * after it the connection is cut. The error goes to `onError` as a handler's would.
   */
  fail(error: unknown): void;
  /** Aborts when the stream stops for any reason, the client leaving included. */
  readonly signal: AbortSignal;
}

/**
 * A push producer: subscribes, and may return (or resolve to) the clean-up function that unsubscribes;
 * anything else it returns is ignored.
 */
export type SseChannelStart = (channel: SseChannel) => unknown;

/**
 * A push-form event source for `sse()`: `start(channel)` is called when the reply starts being sent
 * and calls `channel.send(…)` whenever it has an event. What `start` returns (or resolves to), if a
 * function, is the clean-up: it runs exactly once when the stream ends (the client left, `close`,
 * `fail`, or `start` failing), also when `start` resolves it after the client already left. A `start`
 * that throws or rejects fails the stream as a producer that throws does. A clean-up that throws is
 * ignored (the stream is over either way).
 *
 * ```ts
 * route("GET /news", () =>
 *   sse(sseChannel((channel) => bus.subscribe((news) => channel.send({ event: "news", data: news }))),
 *     { heartbeat: 15_000 }),
 * );
 * ```
 */
export function sseChannel(start: SseChannelStart): SseSource {
  if (typeof start !== "function") throw new TypeError("sseChannel: start must be a function");
  return (signal) => new ChannelIterator(start, signal);
}

type Entry =
  | { readonly kind: "message"; readonly message: SseMessage }
  | { readonly kind: "close" }
  | { readonly kind: "fail"; readonly error: unknown };

const DONE: IteratorResult<SseMessage> = Object.freeze({ done: true, value: undefined });

class ChannelIterator implements AsyncIterableIterator<SseMessage> {
  private readonly queue: Entry[] = [];
  private waiting: ((entry: Entry | undefined) => void) | undefined;
  private ending = false; // close or fail queued: no more sends
  private over = false; // returned: nothing more is read
  private cleanup: (() => void) | undefined;
  private cleaned = false;

  constructor(start: SseChannelStart, signal: AbortSignal) {
    const channel: SseChannel = {
      send: (message) => {
        if (this.ending || this.over) return false;
        sseFrame(message); // checked now, where the caller can see its mistake
        this.push({ kind: "message", message });
        return true;
      },
      close: () => this.end({ kind: "close" }),
      fail: (error) => this.end({ kind: "fail", error }),
      signal,
    };
    let started: unknown;
    try {
      started = start(channel);
    } catch (error) {
      this.end({ kind: "fail", error });
      return;
    }
    if (typeof (started as Partial<PromiseLike<unknown>> | undefined)?.then === "function") {
      Promise.resolve(started).then(
        (cleanup) => this.setCleanup(cleanup),
        (error: unknown) => this.end({ kind: "fail", error }),
      );
    } else this.setCleanup(started);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<SseMessage>> {
    if (this.over) return DONE;
    const entry = this.queue.shift() ?? (await new Promise<Entry | undefined>((resolve) => (this.waiting = resolve)));
    if (entry === undefined || entry.kind === "close") {
      this.finish();
      return DONE;
    }
    if (entry.kind === "fail") {
      this.finish();
      throw entry.error;
    }
    return { done: false, value: entry.message };
  }

  async return(): Promise<IteratorResult<SseMessage>> {
    this.finish();
    return DONE;
  }

  private end(entry: Entry): void {
    if (this.ending || this.over) return;
    this.ending = true;
    this.push(entry);
  }

  private push(entry: Entry): void {
    const waiting = this.waiting;
    if (waiting === undefined) this.queue.push(entry);
    else {
      this.waiting = undefined;
      waiting(entry);
    }
  }

  private setCleanup(cleanup: unknown): void {
    if (typeof cleanup !== "function") return;
    this.cleanup = cleanup as () => void;
    if (this.over) this.runCleanup(); // the client left while start was still subscribing
  }

  private finish(): void {
    if (this.over) return;
    this.over = true;
    this.queue.length = 0;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(undefined);
    this.runCleanup();
  }

  private runCleanup(): void {
    const cleanup = this.cleanup;
    if (cleanup === undefined || this.cleaned) return;
    this.cleaned = true;
    this.cleanup = undefined;
    try {
      cleanup();
    } catch {
      // a clean-up that throws cannot be helped here: the stream is over either way
    }
  }
}
