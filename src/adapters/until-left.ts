import { chunksOf, type StreamBody } from "../reply-stream.js";

const DONE: IteratorResult<Uint8Array> = Object.freeze({ done: true, value: undefined });

/**
 * `body` read until the client leaves (`signal` aborts): then the read in progress ends at once and
 * `body` is cancelled, so its producer is told (an SSE stream's signal aborts, a generator returns).
 * For the adapters that hand a stream to someone else and would otherwise learn of the leaving only
 * at their next read: the Fetch adapter while it still waits for the first chunk (no `Response` yet,
 * so the runtime has nothing to cancel), and Koa, which pipes the stream through `Readable.from`,
 * whose destroy waits for the read in progress (an idle SSE stream's next event may never come).
 */
export function untilLeft(body: StreamBody, signal: AbortSignal): AsyncIterable<Uint8Array> {
  const chunks = chunksOf(body);
  let wake: ((chunk: null) => void) | undefined;
  const leave = (): void => {
    chunks.cancel();
    wake?.(null);
  };
  const stop = (): void => {
    signal.removeEventListener("abort", leave);
    chunks.cancel();
  };
  if (signal.aborted) chunks.cancel();
  else signal.addEventListener("abort", leave, { once: true });
  const iterator: AsyncIterator<Uint8Array> = {
    async next() {
      if (signal.aborted) return DONE;
      const chunk = await new Promise<Uint8Array | null>((resolve, reject) => {
        wake = resolve;
        chunks.next().then(resolve, (error: unknown) => {
          stop();
          reject(error);
        });
      });
      wake = undefined;
      if (chunk !== null) return { done: false, value: chunk };
      stop();
      return DONE;
    },
    async return() {
      stop();
      return DONE;
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}
