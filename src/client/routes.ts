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
 * `api["/api/users/id:Int"].get({ vars: { id: 7 } })`, typed by the route the tree serves under that
 * path template and method (its variables, what its handler returns). The template is the route's
 * pattern path, as `route`/`match` spell it and `req.route.pattern` names it. At run time no tree is
 * needed (a browser imports the app's type only): each template is parsed once by the pattern grammar
 * into a one-route tree, and `urlFor` writes the path from it, each value by its parser.
 *
 * Why `api[template].method(init)` and not `api.method(template, init)`: the second is a generic call,
 * and every call of it made the compiler walk the whole route list again (~2,000 instantiations a call
 * for 500 routes: +300 % for a client calling each once); a property of a mapped type is worked out once
 * per template the code names (~100).
 */

/** The call names a route for any method offers: the standard methods, lower-case. */
type AnyMethodCall = "get" | "post" | "put" | "patch" | "delete" | "head" | "options";

/** A route's call name: its method, lower-case (`propfind`); every standard one for a route of any method. */
type CallName<M extends string> = M extends "*" ? AnyMethodCall : Lowercase<M>;

/** What a call to one route may send besides its method and template. */
export interface RouteCallInit<V, B = unknown> extends CallInit {
  /** The route's path variables, by label (typed by its pattern: `id:Int` takes a `number`). */
  readonly vars?: V;
  /** A JSON body (typed by the schema its `described` inputs declare), or text as it is. */
  readonly body?: B;
  /** The segments after a route that takes any rest of the path (its template ends in `/*`). */
  readonly rest?: readonly string[];
}

/** The routes `R` (a union of {@link ServedRoute}) by template: at each, every route on it (any method). */
export type RoutesByTemplate<R extends ServedRoute> = { [D in R as D["path"]]: D };

/** A call's arguments after the template: `init` (with `vars`) required when the route has variables. */
export type RouteCallArgs<D extends ServedRoute> = Parameters<RouteCall<D>>;

/** {@link RouteCallInit} for a route with variables: `vars` required. */
export interface RouteCallInitWithVars<V, B = unknown> extends RouteCallInit<V, B> {
  readonly vars: V;
}

/**
 * What a call to the route(s) `D` resolves to (a fall-through's routes: any of theirs): what the handler
 * returns, as JSON carries it; where it returns a hand-made reply (`json(v, { status: 201 })`, whose
 * body the type cannot see), what its `described` info declares for its 2xx statuses, else `unknown`.
 */
export type RouteCallResult<D extends ServedRoute> = unknown extends D["info"]
  ? ResultOf<Awaited<D["result"]>>
  : DeclaredOk<D["info"]> extends infer Ok
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

/**
 * A call of the route(s) `D`: `init` (with `vars`) required when the route has variables, resolving to
 * {@link RouteCallResult}. Two plain signatures rather than one with a conditional rest tuple: ~13
 * instantiations fewer a call.
 */
export type RouteCall<D extends ServedRoute> = {} extends D["vars"]
  ? (init?: RouteCallInit<D["vars"], BodyOf<D["info"]>>) => Promise<RouteCallResult<D>>
  : (init: RouteCallInitWithVars<D["vars"], BodyOf<D["info"]>>) => Promise<RouteCallResult<D>>;

/** The calls on one template, by call name: the routes `Ds` on it. */
export type TemplateCalls<Ds extends ServedRoute> = { readonly [D in Ds as CallName<D["method"]>]: RouteCall<D> };

/**
 * The typed client of an app whose type is `App` (`typeof app`): for each path template the app
 * serves, the calls of its methods (`api["/users/id:Int"].get(init)`), each resolving to what the
 * route's handler returns, as JSON carries it.
 */
export type RouteClient<App> = ClientOfTable<RoutesByTemplate<ServedRoutes<App>>, ServedRoutes<App>["path"]>;

// a mapped type over the templates `K` (the table's keys, read off the routes rather than the table:
// ~1,500 instantiations fewer for 500 routes); a property's calls are worked out when code names it
type ClientOfTable<T extends { readonly [template: string]: ServedRoute }, K extends keyof T> = {
  readonly [P in K]: TemplateCalls<T[P]>;
};

const noop = (): undefined => undefined;

/** A method token (RFC 9110 `tchar`) in lower case: a call's name. */
const CALL_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;

/** The client of {@link RouteClient}'s shape, sending with `options`. */
export function routeClient<App>(options: ClientOptions): RouteClient<App> {
  const send = transport(options);
  const templates = new Map<string, object>();
  const calls = (template: string): object => {
    let tree: RouteNode | undefined;
    const methods = new Map<string, unknown>();
    return new Proxy(Object.freeze({}), {
      get: (_target, name) => {
        // a call is a lower-case method token; anything else (`then`, so that `await api[t]` is no call,
        // `constructor`, `toJSON`, symbols) is none
        if (typeof name !== "string" || !CALL_NAME.test(name) || name === "then" || name === "constructor")
          return undefined;
        let call = methods.get(name);
        if (call === undefined) {
          const method = name.toUpperCase();
          call = (init: RouteCallInit<Readonly<Record<string, unknown>>> = {}) => {
            try {
              // the template's own route, as the pattern grammar reads it (a malformed one: a PatternError)
              tree ??= template.endsWith("/*") ? match(template.slice(0, -2) || "/", noop) : route(template, noop);
              const path = urlFor(tree, tree, init.vars ?? {}, init.rest === undefined ? {} : { rest: init.rest });
              return send(method, path, init);
            } catch (error) {
              return Promise.reject(error);
            }
          };
          methods.set(name, call);
        }
        return call;
      },
    });
  };
  return new Proxy(Object.freeze({}), {
    get: (_target, template) => {
      // a template starts with `/`; anything else (`then`, `toJSON`, symbols) is none
      if (typeof template !== "string" || !template.startsWith("/")) return undefined;
      let entry = templates.get(template);
      if (entry === undefined) {
        entry = calls(template);
        templates.set(template, entry);
      }
      return entry;
    },
  }) as RouteClient<App>;
}
