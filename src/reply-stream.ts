import { utf8Encoder } from "./utf8.js";

/*
 * Streamed reply bodies, read the same way by every adapter: a Web `ReadableStream` or any async
 * iterable (a Node `Readable` is one) becomes a pull-based source of byte chunks that checks every
 * chunk and can be cancelled, which releases what the stream holds (a file descriptor, a cursor).
 */

/** A streamed reply body being sent. */
export interface ChunkSource {
  /** The next chunk, or `null` at the end. Rejects when the stream fails or yields a non-byte chunk. */
  next(): Promise<Uint8Array | null>;
  /** The client left, or sending failed: stop the stream and release what it holds. Idempotent. */
  cancel(): void;
}

/** A streamed body: a Web `ReadableStream` or an async iterable of bytes or strings. */
export type StreamBody = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

/** True when `body` is a stream, not text, bytes or nothing. */
export function isStreamBody(body: unknown): body is StreamBody {
  if (typeof body !== "object" || body === null || body instanceof Uint8Array) return false;
  return (
    (typeof ReadableStream !== "undefined" && body instanceof ReadableStream) ||
    typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function"
  );
}

/** Pulls the chunks of a streamed reply body, one at a time. */
export function chunksOf(body: StreamBody): ChunkSource {
  const iterator: AsyncIterator<unknown> =
    typeof ReadableStream !== "undefined" && body instanceof ReadableStream
      ? readerIterator(body)
      : (body as AsyncIterable<unknown>)[Symbol.asyncIterator]();
  let finished = false;
  const cancel = (): void => {
    if (finished) return;
    finished = true;
    try {
      // a ReadableStream's reader is cancelled; an iterator is told to return. A Node Readable is also
      // destroyed outright: the iterator of one never read from would not run its clean-up
      const closing = iterator.return?.();
      if (closing !== undefined) Promise.resolve(closing).catch(() => undefined);
      const destroy = (body as { destroy?: unknown }).destroy;
      if (typeof destroy === "function") destroy.call(body);
    } catch {
      // a stream that fails to close has nothing more we can release
    }
  };
  return {
    async next() {
      if (finished) return null;
      let step: IteratorResult<unknown>;
      try {
        step = await iterator.next();
      } catch (error) {
        finished = true;
        throw error;
      }
      if (step.done === true) {
        finished = true;
        return null;
      }
      const chunk = step.value;
      if (chunk instanceof Uint8Array) return chunk;
      if (typeof chunk === "string") return utf8Encoder.encode(chunk);
      cancel();
      throw new TypeError(
        `a reply stream yielded ${describe(chunk)}; its chunks must be strings or bytes (Uint8Array)`,
      );
    },
    cancel,
  };
}

function readerIterator(stream: ReadableStream<Uint8Array>): AsyncIterator<unknown> {
  const reader = stream.getReader();
  return {
    next: () => reader.read() as Promise<IteratorResult<unknown>>,
    return: async () => {
      await reader.cancel();
      return { done: true, value: undefined };
    },
  };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "object") return `an object (${Object.prototype.toString.call(value)})`;
  return `a ${typeof value} (${String(value)})`;
}

/** Statuses whose reply never has a body (HTTP says so; `node:http` drops one). */
export function isBodiless(status: number): boolean {
  return status === 204 || status === 304;
}

/** Releases a body that will not be sent (a stream behind a 204 or 304, or a HEAD reply). */
export function discard(body: unknown): void {
  if (isStreamBody(body)) chunksOf(body).cancel();
}

/**
 * A streamed reply body as a Web `ReadableStream` (for `Response` and Koa), with its first chunk
 * already read: a stream that fails before its first byte rejects here, while the status can still
 * be a 500. A failure after that errors the result (the runtime cuts the connection) and is told to
 * `failedMidway`, since nobody else reports it. Cancelling the result cancels the body.
 *
 * `signal` aborts when the client leaves: the body is cancelled then, and a read in progress ends the
 * result at once, so its producer is told (an SSE stream's signal aborts, a generator returns). The
 * runtime or framework would learn of the leaving only at its next read, and has nothing to cancel
 * before the first chunk (no `Response` yet); Koa's own destroy waits for the read in progress (an idle
 * SSE stream's next event may never come).
 */
export async function webStreamOf(
  body: StreamBody,
  failedMidway: (error: unknown) => void = () => undefined,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array>> {
  const chunks = chunksOf(body);
  let wake: ((end: null) => void) | undefined;
  const leave = (): void => {
    chunks.cancel();
    wake?.(null);
  };
  const stop = (): void => {
    signal?.removeEventListener("abort", leave);
    chunks.cancel();
  };
  signal?.addEventListener("abort", leave, { once: true });
  const next = (): Promise<Uint8Array | null> =>
    signal === undefined
      ? chunks.next()
      : signal.aborted
        ? Promise.resolve(null)
        : new Promise((resolve, reject) => {
            wake = resolve;
            chunks.next().then(resolve, reject);
          });
  let first: Uint8Array | null;
  try {
    first = await next();
  } catch (error) {
    stop();
    throw error;
  }
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = first;
      first = null;
      try {
        chunk ??= await next();
      } catch (error) {
        stop();
        failedMidway(error);
        throw error;
      }
      if (chunk !== null) {
        controller.enqueue(chunk);
        return;
      }
      stop();
      controller.close();
    },
    cancel: stop,
  });
}
