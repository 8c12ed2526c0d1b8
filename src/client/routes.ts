import { match, route } from "../pattern/build.js";
import type { ServedRoute, ServedRoutes } from "../served.js";
import { urlFor } from "../tools/url.js";
import type { RouteNode } from "../tree.js";
import type { ContractValue } from "../contract-types.js";
import type { Reply } from "../reply.js";
import type { ResultOf } from "./results.js";
import { type CallInit, type ClientOptions, transport } from "./transport.js";

/*
 * The typed client of a whole app, from its type alone: `client<typeof app>({ baseUrl })` gives
 * `api.get("/api/users/id:Int", { vars: { id: 7 } })`, typed by the route the tree serves under that
 * method and template (its variables, what its handler returns). The template is the route's pattern
 * path, as `route`/`match` spell it and `req.route.pattern` names it. At run time no tree is needed
 * (a browser imports the app's type only): each template is parsed once by the pattern grammar into a
 * one-route tree, and `urlFor` writes the path from it, each value by its parser.
 */

/** The call names of the standard methods, and the methods they send. */
const VERBS = {
  get: "GET",
  post: "POST",
  put: "PUT",
  patch: "PATCH",
  delete: "DELETE",
  head: "HEAD",
  options: "OPTIONS",
} as const;

type Verbs = typeof VERBS;

/** What a call to one route may send besides its method and template. */
export interface RouteCallInit<V, B = unknown> extends CallInit {
  /** The route's path variables, by label (typed by its pattern: `id:Int` takes a `number`). */
  readonly vars?: V;
  /** A JSON body (typed by the schema its `described` inputs declare), or text as it is. */
  readonly body?: B;
  /** The segments after a route that takes any rest of the path (its template ends in `/*`). */
  readonly rest?: readonly string[];
}

/**
 * The routes `R` (a union of {@link ServedRoute}) that method `M` reaches, by template: the routes of
 * `M` and those that take any method. Two routes on one template (a fall-through) share its key.
 */
export type RoutesByTemplate<R, M extends string> = {
  [D in R & ServedRoute as D["method"] extends M | "*" ? D["path"] : never]: D;
};

/** A call's arguments after the template: `init` (with `vars`) required when the route has variables. */
export type RouteCallArgs<D extends ServedRoute> = {} extends D["vars"]
  ? [init?: RouteCallInit<D["vars"], BodyOf<D["info"]>>]
  : [init: RouteCallInit<D["vars"], BodyOf<D["info"]>> & { readonly vars: D["vars"] }];

/**
 * What a call to the route(s) `D` resolves to (a fall-through's routes: any of theirs): what the handler
 * returns, as JSON carries it; where it returns a hand-made reply (`json(v, { status: 201 })`, whose
 * body the type cannot see), what its `described` info declares for its 2xx statuses, else `unknown`.
 */
export type RouteCallResult<D extends ServedRoute> =
  DeclaredOk<D["info"]> extends infer Ok
    ? [Ok] extends [never]
      ? ResultOf<Awaited<D["result"]>>
      : ResultOf<Exclude<Awaited<D["result"]>, Reply>> | Ok
    : never;

/** The success statuses a `described` info may declare a reply for. */
type OkStatus = 200 | 201 | 202 | 203 | 206 | "200" | "201" | "202" | "203" | "206" | "2XX";

/** The JSON its info declares for the route's 2xx replies; `never` when it declares none. */
type DeclaredOk<I> = I extends { readonly responses?: infer Rs }
  ? SchemaValue<NonNullable<Rs>[OkStatus & keyof NonNullable<Rs>]>
  : never;

/** The body its info declares (an input `{ in: "body", schema }`); `unknown` when it declares none. */
type BodyOf<I> = I extends { readonly inputs?: readonly (infer Input)[] }
  ? SchemaValue<Extract<Input, { readonly in: "body" }>> extends infer B
    ? [B] extends [never]
      ? unknown
      : B
    : never
  : unknown;

/** The values the schema of a declared reply or input accepts. */
type SchemaValue<X> = X extends { readonly schema: infer S } ? ContractValue<S> : never;

/** One method's calls: the template, then what {@link RouteCallArgs} asks for. */
export type RouteCall<T> = <const P extends keyof T & string>(
  template: P,
  ...init: T[P] extends ServedRoute ? RouteCallArgs<T[P]> : never
) => Promise<T[P] extends ServedRoute ? RouteCallResult<T[P]> : never>;

/**
 * The typed client of an app whose type is `App` (`typeof app`): `get`, `post`, `put`, `patch`,
 * `delete`, `head`, `options` take a template the app serves under that method, and `request` any
 * method (`"PROPFIND"`). Each resolves to what the route's handler returns, as JSON carries it.
 */
export type RouteClient<App> = RouteClientOf<ServedRoutes<App>>;

type RouteClientOf<R> = { readonly [K in keyof Verbs]: RouteCall<RoutesByTemplate<R, Verbs[K]>> } & {
  /** A call with any method: `api.request("PROPFIND", "/files/*", { rest: ["a"] })`. */
  readonly request: <const M extends string, const P extends keyof RoutesByTemplate<R, M> & string>(
    method: M,
    template: P,
    ...init: RoutesByTemplate<R, M>[P] extends ServedRoute ? RouteCallArgs<RoutesByTemplate<R, M>[P]> : never
  ) => Promise<RoutesByTemplate<R, M>[P] extends ServedRoute ? RouteCallResult<RoutesByTemplate<R, M>[P]> : never>;
};

const noop = (): undefined => undefined;

/** The client of {@link RouteClient}'s shape, sending with `options`. */
export function routeClient<App>(options: ClientOptions): RouteClient<App> {
  const send = transport(options);
  const trees = new Map<string, RouteNode>();
  const call = (method: string, template: string, init: RouteCallInit<Readonly<Record<string, unknown>>> = {}) => {
    try {
      let tree = trees.get(template);
      if (tree === undefined) {
        // the template's own route, as the pattern grammar reads it (a malformed one throws a PatternError)
        tree = template.endsWith("/*") ? match(template.slice(0, -2) || "/", noop) : route(template, noop);
        trees.set(template, tree);
      }
      const path = urlFor(tree, tree, init.vars ?? {}, init.rest === undefined ? {} : { rest: init.rest });
      return send(method, path, init);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const calls: Record<string, unknown> = {
    request: (method: string, template: string, init?: RouteCallInit<Readonly<Record<string, unknown>>>) =>
      call(method, template, init),
  };
  for (const [name, method] of Object.entries(VERBS)) {
    calls[name] = (template: string, init?: RouteCallInit<Readonly<Record<string, unknown>>>) =>
      call(method, template, init);
  }
  return Object.freeze(calls) as RouteClient<App>;
}
