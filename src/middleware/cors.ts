import { HttpError, isHttpError } from "../errors.js";
import { type HandlerResult, json, type Reply, type ReplyHeaders, reply } from "../reply.js";
import type { RoutedRequest } from "../request.js";
import { allowedMethods } from "../tools/allow.js";
import type { NotAHandler, ServedBy, Serves } from "../served.js";
import { type Middleware, type NeedsVars, type Next, type NextServing, toNode, type UseNode, use } from "../tree.js";

/*
 * CORS (the Fetch standard's protocol), answered from the tree: a preflight lists exactly the methods
 * the routes inside accept for its path (the computation behind 405's `Allow`), and a preflight for a
 * path nothing inside routes is passed on, never answered as a success.
 */

/** Which origins may read the replies: `*`, one origin, a list, a pattern, or a predicate. */
export type CorsOrigin =
  | "*"
  | string
  | readonly string[]
  | RegExp
  | ((origin: string, request: RoutedRequest) => boolean);

/** Options of {@link cors}. */
export interface CorsOptions {
  /** Which origins may read replies; `*` (any, without credentials) unless given. Origins compare exactly. */
  readonly origin?: CorsOrigin;
  /** Send `Access-Control-Allow-Credentials: true` (cookies, HTTP auth); refused together with origin `*`. */
  readonly credentials?: boolean;
  /** Request headers a preflight allows; unless given, the ones the preflight asks for. */
  readonly allowHeaders?: readonly string[];
  /** Reply headers the browser lets scripts read (`Access-Control-Expose-Headers`). */
  readonly exposeHeaders?: readonly string[];
  /** How long (seconds) a browser may cache a preflight's answer (`Access-Control-Max-Age`). */
  readonly maxAge?: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The routes of `next` with CORS: preflights (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) for a path the routes accept are answered 204 with the methods they
 * accept there; other requests from an allowed origin get `Access-Control-Allow-Origin` (and
 * credentials and exposed headers as configured) on their reply, an `HttpError`'s included. Put it at
 * the root for the whole app (`cors({ origin: "https://app.example" }, app)`) or around a subtree.
 * Throws a `TypeError` for options that cannot work (origin `*` with credentials, a bad header name).
 */
export function cors<V extends object = {}, S = never, R extends HandlerResult | Promise<HandlerResult> = NotAHandler>(
  options: CorsOptions,
  next: NextServing<V, S, R>,
): UseNode & NeedsVars<V> & Serves<ServedBy<S, R>> {
  // typed as `use` is, so that the routes inside stay visible to `client<typeof app>()`
  const inside = toNode(next as Next<never>, "cors");
  return use(corsMiddleware(options, inside), inside as Next<never>) as UseNode & NeedsVars<V> & Serves<ServedBy<S, R>>;
}

/** The middleware {@link cors} puts around `inside` (whose routes its preflights are answered from). */
function corsMiddleware(options: CorsOptions, inside: Parameters<typeof allowedMethods>[0]): Middleware {
  const settings = checked(options);
  return async (request, next) => {
    const origin = request.headers.get("origin");
    if (origin === null) return next();
    const allowed = settings.allows(origin, request);
    const requested = request.method === "OPTIONS" ? request.headers.get("access-control-request-method") : null;
    if (requested !== null) return preflight(settings, inside, request, origin, allowed, requested, next);
    if (!allowed) return withVary(await next(), settings);
    try {
      const answer = await next();
      return answer === null ? null : withHeaders(answer, settings.actualHeaders(origin));
    } catch (error) {
      // a client error keeps its status and body, and the browser may read it
      if (!isHttpError(error)) throw error;
      throw new HttpError(error.status, error.message, {
        headers: { ...error.headers, ...settings.actualHeaders(origin) },
        expose: error.expose,
        ...(error.details === undefined ? {} : { details: error.details }),
        ...(error.cause === undefined ? {} : { cause: error.cause }),
      });
    }
  };
}

async function preflight(
  settings: Settings,
  inside: Parameters<typeof allowedMethods>[0],
  request: RoutedRequest,
  origin: string,
  allowed: boolean,
  requested: string,
  next: () => Promise<Reply | null>,
): Promise<Reply | null> {
  if (!TOKEN.test(requested)) {
    return json(
      { error: "Access-Control-Request-Method is not a method token" },
      { status: 400, headers: settings.vary },
    );
  }
  const methods = allowedMethods(inside, request.rest);
  // nothing inside routes the path: not a success; whatever comes after answers (a 404)
  if (methods !== "any" && methods.length === 0) return next();
  if (!allowed)
    return json(
      { error: `the origin ${JSON.stringify(origin.slice(0, 200))} may not make this request` },
      {
        status: 403,
        headers: settings.vary,
      },
    );
  const requestedHeaders = request.headers.get("access-control-request-headers");
  let allowHeaders = settings.allowHeaders;
  if (allowHeaders === undefined && requestedHeaders !== null) {
    const names = requestedHeaders
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "");
    const bad = names.find((name) => !TOKEN.test(name));
    if (bad !== undefined)
      return json(
        { error: "Access-Control-Request-Headers lists a name that is not a header token" },
        { status: 400, headers: settings.vary },
      );
    allowHeaders = [...new Set(names)].join(", ");
  }
  const headers: Record<string, string> = {
    ...settings.originHeaders(origin),
    "access-control-allow-methods": methods === "any" ? requested : methods.join(", "),
  };
  if (allowHeaders !== undefined && allowHeaders !== "") headers["access-control-allow-headers"] = allowHeaders;
  if (settings.allowHeaders === undefined && requestedHeaders !== null)
    headers.vary = `${headers.vary === undefined ? "" : `${headers.vary}, `}Access-Control-Request-Headers`;
  if (settings.maxAge !== undefined) headers["access-control-max-age"] = settings.maxAge;
  return reply({ status: 204, headers });
}

/** The options, checked once, with what every request reuses made up front. */
interface Settings {
  allows(origin: string, request: RoutedRequest): boolean;
  /** The headers every answer to an allowed origin carries, a preflight's too: origin, vary, credentials. */
  originHeaders(origin: string): Record<string, string>;
  /** {@link originHeaders} and the exposed headers: what an actual request's reply carries. */
  actualHeaders(origin: string): Record<string, string>;
  readonly allowHeaders: string | undefined;
  readonly maxAge: string | undefined;
  /** `Vary: Origin` when the answer depends on the origin, else nothing. */
  readonly vary: ReplyHeaders;
}

function checked(options: CorsOptions): Settings {
  if (typeof options !== "object" || options === null) throw new TypeError("cors: expected an options object");
  const origin = options.origin ?? "*";
  const credentials = options.credentials === true;
  if (origin === "*" && credentials)
    throw new TypeError(
      'cors: origin "*" with credentials is refused by browsers (the Fetch standard); list the origins, or give a pattern or a predicate',
    );
  const allows = originTest(origin);
  const headerList = (name: string, list: readonly string[] | undefined): string | undefined => {
    if (list === undefined) return undefined;
    if (!Array.isArray(list)) throw new TypeError(`cors: ${name} must be an array of header names`);
    for (const header of list)
      if (typeof header !== "string" || !TOKEN.test(header))
        throw new TypeError(`cors: ${name} has ${JSON.stringify(header)}, which is not a header name`);
    return list.join(", ");
  };
  const allowHeaders = headerList("allowHeaders", options.allowHeaders);
  const exposeHeaders = headerList("exposeHeaders", options.exposeHeaders);
  if (options.maxAge !== undefined && !(Number.isInteger(options.maxAge) && options.maxAge >= 0))
    throw new TypeError(`cors: maxAge must be a whole number of seconds, got ${String(options.maxAge)}`);
  const anyOrigin = origin === "*";
  const vary: ReplyHeaders = anyOrigin ? {} : { vary: "Origin" };
  return {
    allows,
    allowHeaders,
    maxAge: options.maxAge === undefined ? undefined : String(options.maxAge),
    vary,
    originHeaders(requestOrigin) {
      const headers: Record<string, string> = { "access-control-allow-origin": anyOrigin ? "*" : requestOrigin };
      if (!anyOrigin) headers.vary = "Origin";
      if (credentials) headers["access-control-allow-credentials"] = "true";
      return headers;
    },
    actualHeaders(requestOrigin) {
      const headers = this.originHeaders(requestOrigin);
      if (exposeHeaders !== undefined && exposeHeaders !== "") headers["access-control-expose-headers"] = exposeHeaders;
      return headers;
    },
  };
}

function originTest(origin: CorsOrigin): Settings["allows"] {
  if (origin === "*") return () => true;
  if (typeof origin === "string") return (o) => o === origin;
  if (origin instanceof RegExp) {
    const pattern = new RegExp(origin.source, origin.flags.replace(/[gy]/g, ""));
    return (o) => pattern.test(o);
  }
  if (typeof origin === "function") return (o, request) => origin(o, request) === true;
  if (Array.isArray(origin)) {
    for (const o of origin)
      if (typeof o !== "string") throw new TypeError(`cors: origin lists ${JSON.stringify(o)}, which is not a string`);
    const set = new Set<string>(origin);
    return (o) => set.has(o);
  }
  throw new TypeError('cors: origin must be "*", a string, an array of strings, a RegExp or a predicate');
}

/** `reply` with `headers` added (a `vary` is merged with the reply's own). */
function withHeaders(answer: Reply, headers: Readonly<Record<string, string>>): Reply {
  const merged: Record<string, string | readonly string[]> = { ...answer.headers, ...headers };
  const vary = answer.headers.vary;
  if (vary !== undefined && headers.vary !== undefined) merged.vary = `${String(vary)}, ${headers.vary}`;
  return reply({ status: answer.status, headers: merged, body: answer.body });
}

/** A reply to a refused origin still says it varies by origin (a cache must not serve it to others). */
function withVary(answer: Reply | null, settings: Settings): Reply | null {
  return answer === null || settings.vary.vary === undefined ? answer : withHeaders(answer, { vary: "Origin" });
}
