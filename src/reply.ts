import { isSetCookie, type SetCookie } from "./cookies/set.js";
import { stringifyJson } from "./json.js";
import { processGlobal } from "./process-global.js";
import { isStreamBody, type StreamBody } from "./reply-stream.js";
import type { ReplyHeaders } from "./headers.js";

export type { ReplyHeaders } from "./headers.js";

/**
 * What a reply carries: text, bytes, a stream (a Web `ReadableStream` or any async iterable of bytes or
 * strings — a Node `Readable` is one), or nothing.
 */
export type ReplyBody = string | Uint8Array | StreamBody | null;

/** Status and headers for {@link json}, {@link text} and {@link reply}. */
export interface ReplyInit {
  /**
   * 200 … 999; 200 unless given. A handler's reply is the final response, and 1xx statuses are interim
   * ones: a client sent a final 1xx fails or waits forever.
   */
  readonly status?: number;
  readonly headers?: ReplyHeaders;
  /**
   * Cookies to set or delete (from `cookie`, `deleteCookie`, `signedCookie`): each is one `Set-Cookie`
   * header, after any `set-cookie` given in `headers`, in order. Something else in the list is a
   * `TypeError`.
   */
  readonly cookies?: readonly SetCookie[];
}

const REPLY_BRAND = Symbol.for("switchyard.Reply");

/** A response built by {@link json}, {@link text} or {@link reply}. Plain data; adapters write it. */
export interface Reply {
  readonly [REPLY_BRAND]: true;
  readonly status: number;
  /** Header names are lower-case. */
  readonly headers: ReplyHeaders;
  readonly body: ReplyBody;
}

declare const routeMismatchBrand: unique symbol;
/**
 * The signal a handler returns to pass the request to the next alternative. An interface (not a
 * `unique symbol`) so that inferred return types that include it can be named in `.d.ts` files.
 */
export interface RouteMismatch {
  readonly [routeMismatchBrand]: true;
}

// one signal per process: a handler may return the `routeMismatch()` of the other build (ESM or CommonJS)
const MISMATCH = processGlobal(
  "routeMismatch",
  () => Object.freeze({ toString: () => "routeMismatch()" }) as object as RouteMismatch,
);

/**
 * Returned by a handler (directly or from a promise) to say "not mine": routing goes on with the next
 * alternative, as if the route had not matched (spec 4.3.3).
 */
export function routeMismatch(): RouteMismatch {
  return MISMATCH;
}

/** True for the value {@link routeMismatch} returns. */
export function isRouteMismatch(value: unknown): value is RouteMismatch {
  return value === MISMATCH;
}

/** True for a {@link Reply}. */
export function isReply(value: unknown): value is Reply {
  return typeof value === "object" && value !== null && (value as Partial<Reply>)[REPLY_BRAND] === true;
}

/**
 * A reply with any final status, headers and body (text, bytes or a readable stream). A status outside
 * 200 … 999 is a `RangeError`; a header name or value that HTTP cannot carry (a space in a name, a line
 * break in a value) is a `TypeError`, thrown here in the handler rather than later by the adapter.
 */
export function reply(init: ReplyInit & { readonly body?: ReplyBody } = {}): Reply {
  return makeReply(checkedStatus(init.status), headersOf(init), init.body ?? null);
}

/**
 * `base` with `cookies` set too: its status, headers and body, and one more `Set-Cookie` header per
 * cookie, after those it has. For a reply made elsewhere, such as a redirect:
 * `withCookies(redirect("/home"), [cookie("session", id, { httpOnly: true })])`.
 */
export function withCookies(base: Reply, cookies: readonly SetCookie[]): Reply {
  const checked = isReply(base) ? (base instanceof MadeReply ? base : rebuilt(base)) : undefined;
  if (checked === undefined) throw new TypeError("withCookies: the first argument must be a reply");
  return makeReply(checked.status, withSetCookies(checked.headers, cookies), checked.body);
}

/** A JSON reply (`application/json`); `bigint` values are written as exact JSON numbers. */
export function json(value: unknown, init?: ReplyInit): Reply {
  return withDefaultType(stringifyJson(value), JSON_HEADERS, init);
}

/** A plain-text reply (`text/plain; charset=utf-8`). */
export function text(body: string, init?: ReplyInit): Reply {
  return withDefaultType(body, TEXT_HEADERS, init);
}

// Shared, frozen default headers: a plain `json(v)`/`text(s)` reply allocates nothing but itself.
const JSON_HEADERS: ReplyHeaders = Object.freeze({ "content-type": "application/json; charset=utf-8" });
const TEXT_HEADERS: ReplyHeaders = Object.freeze({ "content-type": "text/plain; charset=utf-8" });
/** No headers: one frozen empty record, shared. */
export const NO_HEADERS: ReplyHeaders = Object.freeze({});
const BYTES_HEADERS: ReplyHeaders = Object.freeze({ "content-type": "application/octet-stream" });

/**
 * The default headers replies share, each one frozen object for every reply that has it: an adapter
 * may keep a ready form of each (the Fetch adapter on Bun does). Not part of the package's API.
 */
export const SHARED_HEADERS: readonly ReplyHeaders[] = [JSON_HEADERS, TEXT_HEADERS, NO_HEADERS, BYTES_HEADERS];

/** A reply made here: its status, headers and body were checked when it was made. */
class MadeReply implements Reply {
  readonly [REPLY_BRAND] = true as const;
  constructor(
    readonly status: number,
    readonly headers: ReplyHeaders,
    readonly body: ReplyBody,
  ) {}
}

function makeReply(status: number, headers: ReplyHeaders, body: ReplyBody): Reply {
  return new MadeReply(status, headers, body);
}

/**
 * A reply that carries the brand but was not made by {@link reply} (hand-forged, or from another copy
 * of this package), checked as {@link reply} would check it: a bad one throws, so it is a 500.
 */
function rebuilt(forged: Reply): Reply {
  const body: unknown = forged.body;
  if (
    !(
      body === null ||
      body === undefined ||
      typeof body === "string" ||
      body instanceof Uint8Array ||
      isStreamBody(body)
    )
  ) {
    throw new TypeError(`a reply's body must be text, bytes, a stream or null, got ${typeof body}`);
  }
  return reply({ status: forged.status, headers: forged.headers, body: (body ?? null) as ReplyBody });
}

function withDefaultType(body: ReplyBody, defaults: ReplyHeaders, init: ReplyInit | undefined): Reply {
  if (init === undefined) return makeReply(200, defaults, body);
  const headers = headersOf(init);
  // no headers given (most replies with a status, every error without headers): the shared defaults
  const merged =
    headers === NO_HEADERS
      ? defaults
      : "content-type" in headers
        ? headers
        : Object.freeze({ ...defaults, ...headers });
  return makeReply(checkedStatus(init.status), merged, body);
}

function checkedStatus(status: number = 200): number {
  if (!Number.isInteger(status) || status < 200 || status > 999) {
    throw new RangeError(`reply status must be an integer from 200 to 999, got ${String(status)}`);
  }
  return status;
}

/** RFC 9110 `token`: what a field name may be. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Anything but HTAB, SP, VCHAR and obs-text cannot be sent in a field value (the set node:http refuses). */
const BAD_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/** The checked headers of `init`, with its cookies' `set-cookie` values after the headers' own. */
function headersOf(init: ReplyInit): ReplyHeaders {
  const headers = checkedHeaders(init.headers);
  return init.cookies === undefined ? headers : withSetCookies(headers, init.cookies);
}

/** `headers` (checked) and one more `set-cookie` value per cookie. */
function withSetCookies(headers: ReplyHeaders, cookies: readonly SetCookie[]): ReplyHeaders {
  if (!Array.isArray(cookies)) throw new TypeError("a reply's cookies must be an array of cookies");
  // each cookie adds its own value (`SetCookie.addedTo`): an app that makes no cookie carries none of it
  return cookies.reduce((out: ReplyHeaders, c: unknown, i: number) => {
    if (!isSetCookie(c))
      throw new TypeError(
        `a reply's cookies[${i}] is not a cookie: make one with cookie(), deleteCookie() or signedCookie()`,
      );
    return c.addedTo(out);
  }, headers);
}

/** The headers with lower-case names, each checked to be sendable. */
function checkedHeaders(headers: ReplyHeaders | undefined): ReplyHeaders {
  if (headers === undefined) return NO_HEADERS;
  const names = Object.keys(headers);
  if (names.length === 0) return NO_HEADERS;
  const out: Record<string, string | readonly string[]> = Object.create(null);
  for (const name of names) {
    const value = headers[name]!;
    if (!HEADER_NAME.test(name)) throw new TypeError(`reply header name ${JSON.stringify(name)} is not an HTTP token`);
    const values: readonly unknown[] = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v !== "string") throw new TypeError(`reply header "${name}" must be a string or an array of strings`);
      if (BAD_HEADER_VALUE.test(v))
        throw new TypeError(
          `reply header "${name}" has a character HTTP cannot carry (a line break, NUL or non-Latin-1)`,
        );
    }
    out[name.toLowerCase()] = value;
  }
  // frozen: headers are checked once, here, so nothing may change them before the adapter sends them
  return Object.freeze(out);
}

/**
 * What a handler may return: a {@link Reply}, {@link routeMismatch}, a string (200 text), bytes or a
 * stream (200 `application/octet-stream`), `undefined` (204), or any other value (200 JSON).
 */
export type HandlerResult =
  | Reply
  | RouteMismatch
  | string
  | Uint8Array
  | StreamBody
  | object
  | number
  | boolean
  | bigint
  | null
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler typed `() => void` returns nothing, which answers 204
  | void;

const NO_CONTENT = makeReply(204, NO_HEADERS, null);

/** The reply a handler's return value stands for, or the mismatch signal. */
export function toReply(result: HandlerResult): Reply | RouteMismatch {
  if (result === undefined) return NO_CONTENT;
  if (result === MISMATCH) return MISMATCH;
  if (isReply(result)) return result instanceof MadeReply ? result : rebuilt(result);
  if (typeof result === "string") return text(result);
  if (result instanceof Uint8Array || isStreamBody(result)) return makeReply(200, BYTES_HEADERS, result);
  return json(result);
}
