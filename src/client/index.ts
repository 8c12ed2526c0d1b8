import type { FieldError } from "../params.js";
import type { PipelineOptions } from "../pipeline.js";
import type { Reply, RouteMismatch } from "../reply.js";
import type { RoutedRequest } from "../request.js";
import { testClient } from "../testing.js";
import { requestFor, type UrlTarget } from "../tools/url.js";
import type { RouteNode } from "../tree.js";

/*
 * A typed client, with no code generation: the types come from the handlers (their request's
 * variables, what they return), the routes from the tree at run time. Each call finds its route in the
 * tree (method and path, through `requestFor`, the walk `urlFor` makes, so every value is written by
 * its parser's `toUrlPiece`), sends it through `fetch` (any Fetch-shaped function: the global one, or
 * `testFetch(app)`, which runs the app in memory), and reads the answer: JSON as its value, text as a
 * string, anything else as bytes; a status outside 2xx rejects with a {@link ClientError}.
 */

/** The part of the Fetch API's `Response` the client reads. */
export interface ClientResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What the client sends with: the global `fetch`, or any function of its shape. */
export type ClientFetch = (
  url: string,
  init: {
    readonly method: string;
    readonly headers: Record<string, string>;
    readonly body?: string;
  },
) => Promise<ClientResponse>;

/** Options of {@link client} (and of `clientFor`). */
export interface ClientOptions {
  /** Put before each path: `https://api.example.com` (no trailing slash needed); `""` by default. */
  readonly baseUrl?: string;
  /** How requests are sent: the global `fetch` unless given (`testFetch(app)` runs the app in memory). */
  readonly fetch?: ClientFetch;
  /** Headers sent with every request (an `authorization`, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What one call may add to its request besides the path variables. */
export interface CallInit {
  /** Query parameters: each value written with `String`, an array as a repeated key. */
  readonly query?: Readonly<Record<string, string | number | boolean | bigint | readonly (string | number)[]>>;
  /** A JSON body (sent with `content-type: application/json`), or text as it is. */
  readonly body?: unknown;
  /** Headers for this request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What a value becomes once sent as JSON and parsed back: dates and other objects with `toJSON` as
 * what it returns, `bigint` a number (switchyard writes it as the exact JSON number), a function or
 * symbol property `never` (JSON leaves it out; the key is kept in the type, which is cheaper to check
 * than a filtered one: ~18,000 fewer instantiations for 500 routes).
 */
export type Jsonified<T> = T extends string | number | boolean | null
  ? T
  : T extends bigint
    ? number
    : T extends undefined | ((...args: never[]) => unknown) | symbol
      ? never
      : T extends Date
        ? string
        : T extends { toJSON(): unknown }
          ? Jsonified<ReturnType<T["toJSON"]>>
          : T extends readonly unknown[]
            ? Jsonified<T[number]>[]
            : T extends object
              ? { [K in keyof T]: Jsonified<T[K]> }
              : unknown;

/**
 * What a call resolves to for a handler that returns `R`: `undefined` for nothing (204), the string
 * for text, bytes for bytes, `unknown` for a hand-made reply (its body could be anything), the JSON
 * form of any other value; a `routeMismatch()` answers nothing, so it adds nothing.
 */
export type ResultOf<R> = R extends RouteMismatch
  ? never
  : R extends Reply
    ? unknown
    : // biome-ignore lint/suspicious/noConfusingVoidType: a handler typed `() => void` answers 204, nothing
      R extends undefined | void
      ? undefined
      : R extends string
        ? string
        : R extends Uint8Array
          ? Uint8Array
          : Jsonified<R>;

/** The result of a handler (or method) `H`, as a call resolves to it. */
export type CallResult<H> = H extends (...args: never[]) => infer R ? ResultOf<Awaited<R>> : unknown;

/**
 * A handler of the app, to call: `(vars, init?) => Promise<result>`, with the variables its request
 * names (the rest, an enclosing prefix's say, checked at run time); `vars` optional when it names none.
 */
export type Call<H> = H extends (...args: infer A) => infer R ? CallWith<A, ResultOf<Awaited<R>>> : never;

type AnyVars = Readonly<Record<string, unknown>>;

/** One call's signature, from the handler's parameters `A` and its result `R` (each worked out once). */
type CallWith<A, R> = A extends readonly [RoutedRequest<infer V>, ...unknown[]]
  ? string extends keyof V
    ? (vars?: AnyVars, init?: CallInit) => Promise<R>
    : {} extends V
      ? (vars?: V & AnyVars, init?: CallInit) => Promise<R>
      : (vars: V & AnyVars, init?: CallInit) => Promise<R>
  : (vars?: AnyVars, init?: CallInit) => Promise<R>;

/** The client of a record of handlers: one call per handler, typed by it. */
export type Client<Handlers> = { readonly [K in keyof Handlers]: Call<Handlers[K]> };

/** Why a call failed: the status (0 when no answer came), the body, and a 400's failing fields. */
export class ClientError extends Error {
  override readonly name = "ClientError";

  constructor(
    message: string,
    /** The answer's status; `0` when the request failed before any answer (the network, `fetch` itself). */
    readonly status: number,
    /** The answer's body: parsed JSON when it says JSON, else its text (`undefined` without an answer). */
    readonly body: unknown,
    /** The failing fields of a 400 that lists them (`{ errors: [...] }`); `[]` otherwise. */
    readonly errors: readonly FieldError[],
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for a {@link ClientError}. */
export function isClientError(value: unknown): value is ClientError {
  return value instanceof ClientError;
}

/**
 * A typed client of `tree` for `handlers`: `client(app, { byId, list })` gives `byId(vars, init?)` and
 * `list(init?)`, each resolving to what the handler returns as the wire carries it (`Jsonified`), its
 * variables typed by the handler's request. The handlers are the very functions (or route nodes) the
 * tree holds; each is found in the tree when called (not in the tree: a `UrlError`).
 */
export function client<const Handlers extends Readonly<Record<string, UrlTarget>>>(
  tree: RouteNode,
  handlers: Handlers,
  options: ClientOptions = {},
): Client<Handlers> {
  const send = sender(options);
  const calls: Record<string, unknown> = {};
  for (const [name, target] of Object.entries(handlers)) {
    calls[name] = (vars: Readonly<Record<string, unknown>> = {}, init: CallInit = {}) => send(tree, target, vars, init);
  }
  return Object.freeze(calls) as Client<Handlers>;
}

/** Sends a call: `(tree, target, vars, init) => Promise<result>`; shared with `clientFor`. */
export type Sender = (
  tree: RouteNode,
  target: UrlTarget,
  vars: Readonly<Record<string, unknown>>,
  init: CallInit,
) => Promise<unknown>;

/** The function that sends calls with these options. */
export function sender(options: ClientOptions): Sender {
  const fetcher: ClientFetch | undefined =
    options.fetch ?? (globalThis as { fetch?: ClientFetch }).fetch?.bind(globalThis);
  if (typeof fetcher !== "function") throw new TypeError("client: no fetch function: give options.fetch");
  const base = (options.baseUrl ?? "").replace(/\/+$/, "");
  const common = options.headers ?? {};
  return async (tree, target, vars, init) => {
    // building the request throws (a UrlError) before anything is sent
    const { method, path } = requestFor(tree, target as never, vars as never);
    const verb = method ?? (init.body === undefined ? "GET" : "POST");
    const headers: Record<string, string> = { accept: "application/json, text/plain;q=0.9, */*;q=0.8" };
    for (const [name, value] of Object.entries({ ...common, ...init.headers })) headers[name.toLowerCase()] = value;
    let body: string | undefined;
    if (init.body !== undefined) {
      if (typeof init.body === "string") body = init.body;
      else {
        body = JSON.stringify(init.body, (_key, value: unknown) => (typeof value === "bigint" ? Number(value) : value));
        headers["content-type"] ??= "application/json";
      }
    }
    const url = `${base}${path}${queryString(init.query)}`;
    let response: ClientResponse;
    try {
      response = await fetcher(url, { method: verb, headers, ...(body === undefined ? {} : { body }) });
    } catch (error) {
      throw new ClientError(
        `${verb} ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
        0,
        undefined,
        [],
        { cause: error },
      );
    }
    return read(response, verb, url);
  };
}

function queryString(query: CallInit["query"]): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

async function read(response: ClientResponse, verb: string, url: string): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  const ok = response.status >= 200 && response.status < 300;
  if (ok && (response.status === 204 || response.status === 205)) return undefined;
  let body: unknown;
  if (JSON_TYPE.test(type)) {
    const text = await response.text();
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch (error) {
      throw new ClientError(`${verb} ${url}: the answer is not JSON`, response.status, text, [], { cause: error });
    }
  } else if (!ok || type.startsWith("text/") || type === "") {
    body = await response.text();
    if (ok && type === "" && body === "") body = undefined;
  } else {
    body = new Uint8Array(await response.arrayBuffer());
  }
  if (ok) return body;
  const errors = fieldErrors(response.status, body);
  const said =
    typeof body === "object" && body !== null && typeof (body as { error?: unknown }).error === "string"
      ? `: ${(body as { error: string }).error}`
      : "";
  throw new ClientError(`${verb} ${url} answered ${response.status}${said}`, response.status, body, errors);
}

function fieldErrors(status: number, body: unknown): readonly FieldError[] {
  if (status !== 400 || typeof body !== "object" || body === null) return [];
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : [];
}

/**
 * A Fetch-shaped function that runs `tree` in memory (through `testClient`, the same pipeline as every
 * adapter, no socket): the transport for tests of a typed client. The URL's origin is ignored.
 */
export function testFetch(tree: RouteNode, options?: PipelineOptions): ClientFetch {
  const app = testClient(tree, options);
  return async (url, init) => {
    const target = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "") || "/";
    const res = await app.request({
      method: init.method,
      url: target,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
    });
    return {
      status: res.status,
      headers: {
        get: (name: string) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
        },
      },
      text: async () => res.body,
      arrayBuffer: async () => res.bytes.slice().buffer as ArrayBuffer,
    };
  };
}
