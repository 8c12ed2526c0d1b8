import { NO_HEADERS, type ReplyHeaders } from "./reply.js";

const HTTP_ERROR_BRAND = Symbol.for("switchyard-router.HttpError");

/** Options of an {@link HttpError}. */
export interface HttpErrorOptions {
  /** Headers to answer with (e.g. `www-authenticate` on a 401, `allow` on a 405). */
  readonly headers?: ReplyHeaders;
  /**
   * Whether the client may see `message` and `details`. Defaults to `true` below 500 and `false` from
   * 500 on, so an unexpected server-side message is never leaked by accident.
   */
  readonly expose?: boolean;
  /** Machine-readable fields merged into the JSON body when exposed (e.g. the failing fields of a DTO). */
  readonly details?: Readonly<Record<string, unknown>>;
  /** The error behind this one, kept for `onError` and logs. */
  readonly cause?: unknown;
}

/**
 * An error that answers with an HTTP status of its choosing. Throw it from a handler, a guard or a body
 * reader: the client gets `status`, the `headers`, and a JSON body `{ "error": message, ...details }`
 * (or the status's generic text when not exposed). Its shape (`status`, `statusCode`, `expose`,
 * `headers`) is the one Express's and Koa's error handlers already understand.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: ReplyHeaders;
  readonly expose: boolean;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(status: number, message: string = statusText(status), options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError status must be an integer from 400 to 599, got ${String(status)}`);
    }
    this.name = "HttpError";
    this.status = status;
    this.headers = options.headers ?? NO_HEADERS;
    this.expose = options.expose ?? status < 500;
    this.details = options.details;
  }

  /** The same as `status` (the name Express's final handler also reads). */
  get statusCode(): number {
    return this.status;
  }
}

// the brand lives on the prototype (every instance and subclass inherits it): defining it on each
// instance cost a property definition per error
Object.defineProperty(HttpError.prototype, HTTP_ERROR_BRAND, { value: true });

/**
 * `make()`'s error without a stack trace: for the client errors the request readers make (a 400 listing
 * the failing fields), which say what the client did wrong, not where in the server — their stack would
 * only name switchyard's readers, and capturing it costs most of a 400 (3.1 µs of a 3.6 µs `badRequest`).
 * `error.stack` is then its first line alone (`HttpError: the body is invalid`); errors from 500 up, and
 * every `HttpError` an app makes itself, keep theirs. Runtimes that do not read `Error.stackTraceLimit`
 * (V8's and JavaScriptCore's do) capture one as usual.
 */
export function withoutStack<E extends Error>(make: () => E): E {
  const errorClass = Error as { stackTraceLimit?: unknown };
  const limit = errorClass.stackTraceLimit;
  if (typeof limit !== "number") return make();
  errorClass.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    errorClass.stackTraceLimit = limit;
  }
}

/** True for an {@link HttpError}, also one made by another copy of this package (ESM beside CommonJS). */
export function isHttpError(value: unknown): value is HttpError {
  return (
    value instanceof HttpError ||
    (typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[HTTP_ERROR_BRAND] === true)
  );
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The reason phrase of a status (`"Error"` for one without a common phrase). */
export function statusText(status: number): string {
  return STATUS_TEXT[status] ?? (status < 500 ? "Client Error" : "Server Error");
}

/**
 * A 401 {@link HttpError} for a guard (or handler) to throw: the request needs credentials it lacks.
 * `challenge` is its `WWW-Authenticate` header, which a 401 must carry (RFC 9110 §15.5.2): the scheme
 * and its parameters, e.g. `Bearer realm="api"` or `Basic realm="admin", charset="UTF-8"`. With a guard,
 * `guard((req) => signedIn(req) || refuse(unauthorized()), next)` answers 401 instead of trying the next
 * route (see {@link refuse}).
 */
export function unauthorized(challenge = "Bearer", message?: string): HttpError {
  if (typeof challenge !== "string" || challenge.trim() === "")
    throw new TypeError("unauthorized: the challenge (WWW-Authenticate) must be a non-empty string, e.g. 'Bearer'");
  return new HttpError(401, message, { headers: { "www-authenticate": challenge } });
}

/**
 * A 403 {@link HttpError} for a guard (or handler) to throw: the client is known but may not do this.
 * `guard((req) => isAdmin(req) || refuse(forbidden("admins only")), next)`.
 */
export function forbidden(message?: string): HttpError {
  return new HttpError(403, message);
}

/**
 * Throws `error`: a guard's way to **answer** instead of falling through. A guard predicate that returns
 * `false` is a mismatch, and the next route is tried (the spec's rule); one that throws an
 * {@link HttpError} ends the request with that error's answer (its status, headers and JSON body), on
 * every dispatcher and adapter, whatever routes come after. Typed `never`, so it fits after `||`:
 * `(req) => hasKey(req) || refuse(unauthorized('ApiKey realm="api"'))`. In a guard class's
 * `canActivate`, `throw forbidden()` is the same.
 */
export function refuse(error: HttpError): never {
  if (!isHttpError(error)) throw new TypeError("refuse: give an HttpError (e.g. unauthorized() or forbidden())");
  throw error;
}
