import type { RoutedRequest } from "../request.js";
import { requestFor, type UrlTarget } from "../tools/url.js";
import type { RouteNode } from "../tree.js";
import { type RouteClient, routeClient } from "./routes.js";
import type { ResultOf } from "./results.js";
import { type CallInit, type ClientOptions, transport } from "./transport.js";

export type { CallResult, Jsonified, ResultOf } from "./results.js";
export type {
  RouteCall,
  RouteCallArgs,
  RouteCallInit,
  RouteCallInitWithVars,
  RouteCallResult,
  RouteClient,
  RoutesByTemplate,
  TemplateCalls,
} from "./routes.js";
export { testFetch } from "./test-fetch.js";
export {
  type CallInit,
  ClientError,
  type ClientFetch,
  type ClientOptions,
  type ClientResponse,
  isClientError,
  type Transport,
  transport,
} from "./transport.js";

/*
 * Typed clients, with no code generation. Two shapes:
 * - `client<typeof app>(options)`: every route the app's type serves, called by method and path
 *   template (`api.get("/users/id:Int", { vars: { id: 7 } })`); no tree needed at run time (routes.ts).
 * - `client(app, { byId }, options)`: the handlers given, typed by their own request and result; each
 *   found in the tree when called (method and path, through `requestFor`, the walk `urlFor` makes, so
 *   every value is written by its parser's `toUrlPiece`).
 */

/**
 * A handler of the app, to call: `(vars, init?) => Promise<result>`, with the variables its request
 * names (the rest, an enclosing prefix's say, checked at run time); `vars` optional when it names none.
 * The variables are inferred with the result, in one match of the handler's type (a second match of its
 * parameter list cost ~40 instantiations a call).
 */
export type Call<H> = H extends (request: RoutedRequest<infer V>, ...rest: never[]) => infer R
  ? CallWith<V, ResultOf<Awaited<R>>>
  : H extends (...args: never[]) => infer R
    ? (vars?: AnyVars, init?: CallInit) => Promise<ResultOf<Awaited<R>>>
    : never;

type AnyVars = Readonly<Record<string, unknown>>;

/** One call's signature, from the variables `V` its request names and its result `R` (each worked out once). */
type CallWith<V, R> = string extends keyof V
  ? (vars?: AnyVars, init?: CallInit) => Promise<R>
  : {} extends V
    ? (vars?: V & AnyVars, init?: CallInit) => Promise<R>
    : (vars: V & AnyVars, init?: CallInit) => Promise<R>;

/** The client of a record of handlers: one call per handler, typed by it. */
export type Client<Handlers> = { readonly [K in keyof Handlers]: Call<Handlers[K]> };

/**
 * A typed client of `tree` for `handlers`: `client(app, { byId, list })` gives `byId(vars, init?)` and
 * `list(init?)`, each resolving to what the handler returns as the wire carries it (`Jsonified`), its
 * variables typed by the handler's request. The handlers are the very functions (or route nodes) the
 * tree holds; each is found in the tree when called (not in the tree: a `UrlError`).
 */
export function client<const Handlers extends Readonly<Record<string, UrlTarget>>>(
  tree: RouteNode,
  handlers: Handlers,
  options?: ClientOptions,
): Client<Handlers>;
/**
 * The typed client of the app whose type is `App`: `client<typeof app>({ baseUrl })` gives
 * `api.get("/users/id:Int", { vars: { id: 7 } })`, `api.post("/users", { body })`, … for every route
 * the app serves that `route`/`match` patterns name, each resolving to what its handler returns as the
 * wire carries it (`Jsonified`). Needs no tree at run time: a browser imports the app's type only.
 */
export function client<App extends RouteNode>(options?: ClientOptions): RouteClient<App>;
export function client(
  first?: RouteNode | ClientOptions,
  handlers?: Readonly<Record<string, UrlTarget>>,
  options: ClientOptions = {},
): object {
  // a tree is a node (it has a `kind`); options never have one
  if (first === undefined || first === null || !("kind" in first)) return routeClient(first ?? {});
  if (typeof handlers !== "object" || handlers === null)
    throw new TypeError("client(tree, handlers): expected a record of handlers, or client<typeof app>(options)");
  const tree = first;
  const send = sender(options);
  const calls: Record<string, unknown> = {};
  for (const [name, target] of Object.entries(handlers)) {
    calls[name] = (vars: Readonly<Record<string, unknown>> = {}, init: CallInit = {}) => send(tree, target, vars, init);
  }
  return Object.freeze(calls);
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
  const send = transport(options);
  return (tree, target, vars, init) => {
    try {
      // building the request throws (a UrlError) before anything is sent
      const { method, path } = requestFor(tree, target as never, vars as never);
      return send(method ?? (init.body === undefined ? "GET" : "POST"), path, init);
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
