import { HttpError, withoutStack } from "./errors.js";
import { utf8Encoder } from "./utf8.js";

/*
 * Request bodies, read the same way on every runtime: chunk by chunk, never past the body limit, so an
 * oversized upload costs a few chunks of memory and a 413, not the whole body.
 */

/**
 * A request body as an adapter hands it over: chunks pulled one by one, and a way to stop early.
 * `stop` leaves the rest unread (the adapter decides what that means for the connection).
 */
export interface BodySource {
  /** The next chunk, or `null` at the end. */
  read(): Promise<Uint8Array | null>;
  /** Stop reading: nothing more will be asked. */
  stop(): void;
  /**
   * The whole body in one read, where the runtime has a native read cheaper than pulling chunks (the
   * Fetch adapter's `arrayBuffer()`) or can answer once for all chunks (node:http): offered only for a
   * body whose length is declared, so that a length over the limit is refused before anything is read;
   * the bytes read are still counted. `undefined`: not offered for this body, which is read by chunks.
   */
  readonly whole?: () => Promise<Uint8Array> | undefined;
  /**
   * `whole()` never answers more than the declared length: the server framed the body by it (node:http's
   * parser), so the bytes need no counting once the length was checked (a `then` less per body).
   */
  readonly framed?: boolean;
}

/** What a request body may be given as (adapters and tests). */
export type BodyInput =
  | BodySource
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Uint8Array
  | string;

/** Default {@link PipelineOptions.bodyLimit}: 1 MiB, as Fastify. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The body of a request without one: it ends at once. */
export const NO_BODY: BodySource = Object.freeze({ read: () => Promise.resolve(null), stop: () => undefined });

/** A {@link BodySource} for any {@link BodyInput}. */
export function bodySource(input: BodyInput): BodySource {
  if (typeof input === "string") return bytesSource(utf8Encoder.encode(input));
  if (input instanceof Uint8Array) return bytesSource(input);
  if (isBodySource(input)) return input;
  if (typeof ReadableStream !== "undefined" && input instanceof ReadableStream) return streamSource(input);
  return iterableSource(input as AsyncIterable<Uint8Array | string>);
}

/** True for a {@link BodySource} (what adapters give), false for the other body shapes. */
export function isBodySource(value: object): value is BodySource {
  return typeof (value as BodySource).read === "function" && typeof (value as BodySource).stop === "function";
}

function bytesSource(bytes: Uint8Array): BodySource {
  let done = bytes.length === 0;
  return {
    read: () => {
      if (done) return Promise.resolve(null);
      done = true;
      return Promise.resolve(bytes);
    },
    stop: () => {
      done = true;
    },
  };
}

/** A {@link BodySource} reading a Web stream. */
export function streamSource(stream: ReadableStream<Uint8Array>): BodySource {
  const reader = stream.getReader();
  return {
    read: async () => {
      const { done, value } = await reader.read();
      return done ? null : toBytes(value);
    },
    stop: () => {
      reader.cancel().catch(() => undefined);
    },
  };
}

function iterableSource(iterable: AsyncIterable<Uint8Array | string>): BodySource {
  const iterator = iterable[Symbol.asyncIterator]();
  return {
    read: async () => {
      const { done, value } = await iterator.next();
      return done ? null : toBytes(value);
    },
    stop: () => {
      iterator.return?.()?.catch(() => undefined);
    },
  };
}

function toBytes(chunk: unknown): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === "string") return utf8Encoder.encode(chunk);
  throw new TypeError(`a request body chunk must be bytes or a string, got ${typeof chunk}`);
}

/** The 413 for a body over `limit` bytes (the client's mistake: no stack, see `withoutStack`). */
function tooLarge(limit: number): HttpError {
  return withoutStack(() => new HttpError(413, `request body is larger than the limit of ${limit} bytes`));
}

/**
 * Reads the whole body, refusing (413) a declared `content-length` over `limit` before reading
 * anything, and stopping at the first chunk that goes over it otherwise (a body read whole is
 * refused once read, when it is longer than it said).
 */
export function readBody(source: BodySource, limit: number, declaredLength: string | null): Promise<Uint8Array> {
  if (declaredLength !== null && Number(declaredLength) > limit) {
    source.stop();
    return Promise.reject(tooLarge(limit));
  }
  // not an async function: a body read whole is one promise, not an async frame awaiting another
  const whole = source.whole?.();
  if (whole === undefined) return readChunks(source, limit);
  if (source.framed === true && declaredLength !== null) return whole;
  return whole.then((bytes) => {
    if (bytes.byteLength > limit) throw tooLarge(limit);
    return bytes;
  });
}

/** The body pulled chunk by chunk, stopped at the first chunk over `limit`. */
async function readChunks(source: BodySource, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await source.read(); chunk !== null; chunk = await source.read()) {
    size += chunk.byteLength;
    if (size > limit) {
      source.stop();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  return concat(chunks, size);
}

/** One array with the bytes of all `chunks` (`size` in all). */
export function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: false });

/**
 * Body bytes as text: UTF-8, a leading byte-order mark dropped, and invalid sequences replaced by
 * U+FFFD (the WHATWG rule that `Response.text()` follows on every runtime), never an error.
 */
export function decodeText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * Body text parsed as JSON; malformed or empty JSON is a 400 saying what is wrong (the client's mistake:
 * no stack, see `withoutStack`).
 */
export function parseJson(text: string): unknown {
  if (text.trim() === "") throw withoutStack(() => new HttpError(400, "request body is empty; expected JSON"));
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = `request body is not valid JSON: ${(error as Error).message}`;
    throw withoutStack(() => new HttpError(400, message, { cause: error }));
  }
}
