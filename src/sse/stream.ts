/*
 * The body of an SSE reply: a producer's messages as framed text, one chunk per message, with
 * heartbeat comments in the silences. It is an async iterator the adapters read one chunk at a time
 * (src/reply-stream.ts), so each event is written as soon as it is produced, and their `return()` —
 * the client left — stops everything at once: the producer's signal aborts, the producer is told to
 * return (its `finally` runs), the heartbeat timer is cleared and a read in progress ends.
 */
import { type SseMessage, sseComment, sseFrame } from "./frame.js";

/**
 * Where the events come from: an async iterable (an `async function*` called, a channel, a
 * database change feed) or a plain iterable of messages, or a function given an `AbortSignal` that
 * returns one. The function is called when the reply starts being sent, not before (a HEAD request or
 * a reply never sent never starts it); its signal aborts when the stream stops for any reason, the
 * client leaving included.
 */
export type SseSource =
  | AsyncIterable<SseMessage>
  | Iterable<SseMessage>
  | ((signal: AbortSignal) => AsyncIterable<SseMessage> | Iterable<SseMessage>);

/** How the body is sent: the options of `sse()` it uses. */
export interface SseStreamSettings {
  /** Milliseconds of silence before a heartbeat comment; `undefined`: none. */
  readonly heartbeat: number | undefined;
  /** The `retry:` line sent with the first chunk; `""`: none. */
  readonly retry: string;
}

/** The comment sent when nothing else was for a heartbeat's time. */
export const HEARTBEAT = sseComment("heartbeat");

type Outcome =
  | { readonly kind: "step"; readonly result: IteratorResult<SseMessage> }
  | { readonly kind: "error"; readonly error: unknown }
  | { readonly kind: "beat" }
  | { readonly kind: "stop" };

const BEAT: Outcome = { kind: "beat" };
const STOP: Outcome = { kind: "stop" };
const DONE: IteratorResult<string> = Object.freeze({ done: true, value: undefined });

/**
 * The stream of one SSE reply. It is its own (single) iterator: whoever asks for an iterator gets this
 * one, so an adapter that discards the reply (a HEAD request) stops the very stream that would be sent.
 */
export class SseStream implements AsyncIterableIterator<string> {
  private readonly controller = new AbortController();
  private source: AsyncIterator<SseMessage> | Iterator<SseMessage> | undefined;
  private pending = ""; // the retry line, until the first chunk carries it
  private pulling = false; // a producer step is under way
  private ready: Outcome | undefined; // a producer step that came while no one was waiting
  private wake: ((outcome: Outcome) => void) | undefined; // the read in progress
  private timer: ReturnType<typeof setTimeout> | undefined;
  private finished = false;
  private producerDone = false;
  private lastSent = false; // the retry line went out alone (an empty producer): the end comes next

  constructor(
    private readonly from: SseSource,
    private readonly settings: SseStreamSettings,
  ) {
    this.pending = settings.retry;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<string>> {
    if (this.finished || this.lastSent) {
      this.stop();
      return DONE;
    }
    if (this.source === undefined) {
      try {
        this.source = this.open();
      } catch (error) {
        this.producerDone = true;
        this.stop();
        throw error;
      }
    }
    if (this.ready === undefined && !this.pulling) this.pull(this.source);
    const outcome = this.ready ?? (await this.waitForOutcome());
    this.ready = undefined;
    switch (outcome.kind) {
      case "stop":
        return DONE;
      case "beat":
        return this.chunk(HEARTBEAT);
      case "error":
        this.producerDone = true;
        this.stop();
        throw outcome.error;
    }
    if (outcome.result.done === true) {
      this.producerDone = true;
      if (this.pending === "" || this.finished) {
        this.stop();
        return DONE;
      }
      this.lastSent = true;
      return this.chunk("\n");
    }
    let text: string;
    try {
      text = sseFrame(outcome.result.value);
    } catch (error) {
      // a message that cannot be framed safely fails the stream (a 500 before the first byte, a cut after)
      this.stop();
      throw error;
    }
    return this.chunk(text);
  }

  /** The client left (or the adapter stopped reading): stop now. */
  async return(): Promise<IteratorResult<string>> {
    this.stop();
    return DONE;
  }

  /** The producer's iterator, from the source. */
  private open(): AsyncIterator<SseMessage> | Iterator<SseMessage> {
    const from = this.from;
    const source = typeof from === "function" ? from(this.controller.signal) : from;
    if (source !== null && typeof source === "object") {
      const asyncIterator = (source as Partial<AsyncIterable<SseMessage>>)[Symbol.asyncIterator];
      if (typeof asyncIterator === "function") return asyncIterator.call(source);
      const iterator = (source as Partial<Iterable<SseMessage>>)[Symbol.iterator];
      if (typeof iterator === "function") return iterator.call(source);
    }
    throw new TypeError("the SSE producer function must return an async iterable or an iterable of messages");
  }

  /** Asks the producer for its next message; the outcome is delivered to the read waiting, or kept. */
  private pull(source: AsyncIterator<SseMessage> | Iterator<SseMessage>): void {
    this.pulling = true;
    let step: IteratorResult<SseMessage> | Promise<IteratorResult<SseMessage>>;
    try {
      step = source.next();
    } catch (error) {
      this.deliver({ kind: "error", error });
      return;
    }
    if (typeof (step as Partial<PromiseLike<unknown>>).then !== "function") {
      this.deliver({ kind: "step", result: step as IteratorResult<SseMessage> });
      return;
    }
    Promise.resolve(step).then(
      (result) => this.deliver({ kind: "step", result }),
      (error: unknown) => this.deliver({ kind: "error", error }),
    );
  }

  private deliver(outcome: Outcome): void {
    this.pulling = false;
    if (this.finished) return; // the stream stopped meanwhile: a late step (or an AbortError) goes nowhere
    if (this.wake !== undefined) this.settle(outcome);
    else this.ready = outcome;
  }

  /** Waits for the producer, a heartbeat, or the stop, whichever comes first. */
  private waitForOutcome(): Promise<Outcome> {
    return new Promise((resolve) => {
      this.wake = resolve;
      const heartbeat = this.settings.heartbeat;
      if (heartbeat !== undefined) this.timer = setTimeout(() => this.settle(BEAT), heartbeat);
    });
  }

  private settle(outcome: Outcome): void {
    const wake = this.wake;
    if (wake === undefined) return;
    this.wake = undefined;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    wake(outcome);
  }

  private chunk(text: string): IteratorResult<string> {
    const value = this.pending === "" ? text : this.pending + text;
    this.pending = "";
    return { done: false, value };
  }

  /**
   * Ends the stream, once: the read in progress ends, the timer is cleared, the signal aborts and a
   * producer that has not finished is told to return (an async generator runs its `finally` at once if
   * it waits at a `yield`, else when its current `await` settles).
   */
  private stop(): void {
    if (this.finished) return;
    this.finished = true;
    this.settle(STOP);
    this.controller.abort();
    const source = this.source;
    if (source === undefined || this.producerDone) return;
    this.producerDone = true;
    try {
      const returned = source.return?.();
      if (returned instanceof Promise) returned.catch(() => undefined);
    } catch {
      // a producer that fails to return has nothing more we can stop
    }
  }
}
