import type { IncomingMessage } from "node:http";
import { type BodySource, concat } from "../body.js";
import { headersOf } from "../headers.js";
import type { AdapterInput } from "../request.js";

/**
 * The body of a `node:http` request, pulled chunk by chunk (one small object per request; nothing is
 * read unless a handler asks). Stopping early lets the rest flow by unkept: memory stays flat, the
 * client is never cut off mid-upload (which would lose the 413 it is about to read), and node:http's
 * own `requestTimeout` bounds how long a client may go on sending.
 *
 * A chunk already buffered is taken at once, and a message parsed to its end with nothing left is over
 * at once (without waiting for `end`); only a read that must wait adds the listeners, once per body, not
 * per read. A JSON POST used to add and remove four listeners on each of its two reads.
 *
 * A handler runs while node:http is still parsing the packet that brought the headers (the `request`
 * event comes before the body in that packet is pushed), so the first read that finds nothing looks
 * again a microtask later, once the body is pushed, before it listens; and a body of a declared length
 * is over once that many bytes are read (node:http sends no more; the message is told complete only
 * later). A body sent with its headers is then read without a listener or an event.
 */
export class NodeBody implements BodySource {
  /** node:http's parser holds a body to its declared length: a whole read needs no counting. */
  readonly framed = true;
  private stopped = false;
  /** Whether a read has waited for the parse to go on (once per body). */
  private lookedAgain = false;
  /** The bytes of a declared length not read yet; -1 when no length is declared; read on the first read. */
  private left: number | undefined;
  /** The listeners while a read waits or may wait again: made on the first read that waits. */
  private listeners: Listeners | undefined;
  private waiting: Waiting | undefined;

  constructor(private readonly req: IncomingMessage) {}

  read(): Promise<Uint8Array | null> {
    const now = this.readNow();
    if (now !== WAIT) return now instanceof Error ? Promise.reject(now) : Promise.resolve(now);
    return new Promise<Uint8Array | null>((resolve, reject) => this.wait({ resolve, reject }));
  }

  /**
   * A body of a declared length in one promise, answered once that many bytes are read (see
   * `BodySource.whole`): no promise per chunk, nor a read after the last to learn that it was the
   * last. Without a declared length: `undefined` (read chunk by chunk, so the limit stops it early).
   */
  whole(): Promise<Uint8Array> | undefined {
    this.left ??= declaredLength(this.req);
    if (this.left < 0) return undefined;
    return new Promise<Uint8Array>((resolve, reject) => {
      // the first chunk alone (most bodies are one), an array only from the second on
      let first: Uint8Array | undefined;
      let chunks: Uint8Array[] | undefined;
      let size = 0;
      // each chunk as it comes (a waiting read's answer too), until the end or a read that must wait
      const collect = (chunk: Uint8Array | null | Error | typeof WAIT): void => {
        let now = chunk;
        for (; now !== null && now !== WAIT && !(now instanceof Error); now = this.readNow()) {
          if (first === undefined) first = now;
          else (chunks ??= [first]).push(now);
          size += now.byteLength;
        }
        if (now === null) resolve(chunks !== undefined ? concat(chunks, size) : (first ?? new Uint8Array(0)));
        else if (now === WAIT) this.wait({ resolve: collect, reject });
        else reject(now);
      };
      collect(this.readNow());
    });
  }

  /** Waits for the parse to go on (once per body), then for the stream's events. */
  private wait(waiting: Waiting): void {
    this.waiting = waiting;
    if (this.lookedAgain) this.listen();
    else {
      this.lookedAgain = true;
      // a reaction on a settled promise: Node's queueMicrotask makes an async resource for each call
      SETTLED.then(() => this.lookAgain());
    }
  }

  /** What a read can answer now: a chunk, `null` at the end, the error of a closed stream, or `WAIT`. */
  private readNow(): Uint8Array | null | Error | typeof WAIT {
    const req = this.req;
    if (this.stopped || req.readableEnded) return null;
    if (req.destroyed) return new Error("the request stream is closed");
    this.left ??= declaredLength(req);
    if (this.left !== 0) {
      // nothing buffered: no `read()`, which would only mark the stream to emit `readable` when data comes
      const chunk = req.readableLength === 0 ? null : this.take();
      if (chunk !== null) return chunk;
      // nothing buffered (`read()` hands over all there is) and the message not parsed to its end: wait
      if (!req.complete) return WAIT;
    }
    this.unlisten();
    // the stream is let run to its end: left unended, each request lived on past its reply (under a
    // stream of 400s V8 doubled the young generation, RSS +13 MiB), where ending it costs ~27k instructions
    req.resume();
    return null;
  }

  /** The chunk buffered (`read()` hands over all there is), counted against the declared length. */
  private take(): Uint8Array | null {
    const chunk = this.req.read() as Uint8Array | null;
    if (chunk !== null && this.left! > 0) this.left! -= chunk.byteLength;
    return chunk;
  }

  /** After the parse: the waiting read answered from what it left, or listening when nothing came. */
  private lookAgain(): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    const now = this.readNow();
    if (now === WAIT) this.listen();
    else {
      // answered in place, not through `settle` and a closure: this is every body's path
      this.waiting = undefined;
      if (now instanceof Error) waiting.reject(now);
      else waiting.resolve(now);
    }
  }

  stop(): void {
    this.stopped = true;
    // a `readable` listener keeps the stream paused: it goes first, so that the rest can flow by
    this.unlisten();
    this.req.resume();
  }

  private listen(): void {
    if (this.listeners !== undefined) return;
    const req = this.req;
    const listeners: Listeners = {
      readable: () => {
        if (this.waiting === undefined) return;
        const chunk = this.take();
        if (chunk !== null) this.settle((w) => w.resolve(chunk));
        else if (req.readableEnded) listeners.end();
      },
      end: () => this.finish((w) => w.resolve(null)),
      error: (error: Error) => this.finish((w) => w.reject(error)),
      close: () => {
        const ended = req.readableEnded;
        this.finish((w) =>
          ended
            ? w.resolve(null)
            : w.reject(new Error("the client closed the connection before the body was complete")),
        );
      },
    };
    this.listeners = listeners;
    for (const event of EVENTS) req.on(event, listeners[event]);
  }

  private unlisten(): void {
    const listeners = this.listeners;
    if (listeners === undefined) return;
    this.listeners = undefined;
    for (const event of EVENTS) this.req.off(event, listeners[event]);
  }

  /** The body is over (or failed): no more listening, and the waiting read is answered. */
  private finish(answer: (waiting: Waiting) => void): void {
    this.unlisten();
    this.settle(answer);
  }

  /** Hands the waiting read its answer; nothing when none waits (a chunk stays buffered for the next). */
  private settle(answer: (waiting: Waiting) => void): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    this.waiting = undefined;
    answer(waiting);
  }
}

/**
 * The length a request declares for its body, or -1 (none, or a chunked body). node:http's parser
 * holds a body to its declared length and joins no duplicate `content-length`.
 */
function declaredLength(req: IncomingMessage): number {
  const headers = req.headers;
  const length = headers["content-length"];
  if (length === undefined || headers["transfer-encoding"] !== undefined) return -1;
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : -1;
}

const SETTLED = Promise.resolve();

/** A read that must wait for more of the body. */
const WAIT: unique symbol = Symbol("wait");

/** A read waiting for a chunk or the end. */
interface Waiting {
  resolve(chunk: Uint8Array | null): void;
  reject(error: Error): void;
}

const EVENTS = ["readable", "end", "error", "close"] as const;

type Listeners = { readonly [E in (typeof EVENTS)[number]]: E extends "error" ? (error: Error) => void : () => void };

/**
 * A `node:http` request as pipeline input (for the node, Express and Koa adapters): its lower-case
 * header record read in place, not copied; its body pulled on demand, or the one a framework's parser
 * already read (`parsed`: Express's `req.body`, Koa's `ctx.request.body`).
 */
export function nodeInput(req: IncomingMessage, adapter: string, raw: unknown, parsed?: unknown): AdapterInput {
  return {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    headers: headersOf(req.headers, true),
    body: new NodeBody(req),
    parsedBody: parsedBodyOf(req, parsed),
    raw,
    adapter,
  };
}

/**
 * The body a framework's parser left on the request, as the pipeline takes it: only when the parser
 * read the request stream to the end. A parser that skipped a content type may still leave a
 * placeholder (`{}` from @koa/bodyparser and Express 4's body-parser) over a stream nobody read; then
 * the body is read from the stream.
 */
function parsedBodyOf(request: IncomingMessage, body: unknown): { readonly value: unknown } | undefined {
  return body === undefined || !request.readableEnded ? undefined : { value: body };
}
