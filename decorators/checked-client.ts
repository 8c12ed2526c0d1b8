import { type CallInit, type ClientOptions, type ResultOf, sender } from "../src/client/index.js";
import type { PatternVars } from "../src/pattern/types.js";
import type { RoutedRequest } from "../src/request.js";
import type { RouteNode } from "../src/tree.js";
import type { PrefixOf } from "./checked.js";
import type { ControllerClass } from "./controllers.js";
import { planned } from "./controllers.js";
import { ControllerError } from "./errors.js";
import { nameOf } from "./metadata.js";
import type { ArgSource } from "./plan.js";

/*
 * The typed client of a controller class: its route methods, called over HTTP with the methods'
 * own signatures. A @Handle method `byId(req: RoutedRequest<{ id: number }>): User` becomes
 * `byId({ id: 7 }) → Promise<User>`; a @PathVar method `byId(@PathVar("id") id: number): User` becomes
 * `byId(7) → Promise<User>`, each argument sent where its parameter decorator reads it (a path variable,
 * a query value, a header, the JSON body). The routes come from the tree at run time: the class's
 * methods are found in it as `urlFor` finds them.
 */

/** The route methods of a controller instance type: its methods returning what a handler returns. */
export type RouteMethodsOf<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T] &
  string;

/** One method of a controller, as its client calls it. */
export type MethodCall<T, M> = M extends () => infer R
  ? (vars?: PrefixVarsOf<T>, init?: CallInit) => Promise<ResultOf<Awaited<R>>>
  : M extends (request: RoutedRequest<infer V>) => infer R
    ? (vars: PrefixVarsOf<T> & V & Readonly<Record<string, unknown>>, init?: CallInit) => Promise<ResultOf<Awaited<R>>>
    : M extends (...args: infer A) => infer R
      ? (...args: A) => Promise<ResultOf<Awaited<R>>>
      : never;

/** The variables of the class's `Controller(prefix)`, when the compiler knows it. */
type PrefixVarsOf<T> =
  PrefixOf<T> extends ""
    ? Readonly<Record<string, unknown>>
    : PatternVars<PrefixOf<T>> & Readonly<Record<string, unknown>>;

/** The typed client of a controller instance type `T`. */
export type ControllerClient<T> = { readonly [K in RouteMethodsOf<T>]: MethodCall<T, T[K]> };

/**
 * A typed client of the controller class `cls`, whose routes are found in `tree` (the app that mounts
 * `controllers([…, cls, …])`, anywhere): `clientFor(app, Users, { baseUrl })` gives `users.byId(7)`
 * → `Promise<User>`. A 4xx/5xx answer rejects with a `ClientError` (status, body, a 400's `errors`).
 */
export function clientFor<T extends object>(
  tree: RouteNode,
  cls: ControllerClass<T>,
  options: ClientOptions = {},
): ControllerClient<T> {
  const send = sender(options);
  const plan = planned(cls);
  const prototype = cls.prototype as Record<string | symbol, unknown>;
  const calls: Record<string | symbol, unknown> = {};
  for (const route of plan.routes) {
    const target = prototype[route.method] as (...args: never[]) => unknown;
    const checked = route.args.length <= 1 && route.args.every((a) => a === undefined || a.kind === "request");
    calls[route.method] = checked
      ? (vars: Readonly<Record<string, unknown>> = {}, init: CallInit = {}) => send(tree, target, vars, init)
      : (...values: unknown[]) => send(tree, target, ...requestParts(cls, route.method, route.args, values));
  }
  return Object.freeze(calls) as ControllerClient<T>;
}

/** The path variables and the rest of a request, from a @PathVar-style method's arguments. */
function requestParts(
  cls: ControllerClass,
  method: string | symbol,
  args: readonly (ArgSource | undefined)[],
  values: readonly unknown[],
): [Readonly<Record<string, unknown>>, CallInit] {
  const vars: Record<string, unknown> = {};
  const query: Record<string, string | number | boolean | bigint | readonly (string | number)[]> = {};
  const headers: Record<string, string> = {};
  let body: unknown;
  args.forEach((source, i) => {
    const value = values[i];
    if (source === undefined || source.kind === "request") return;
    if (source.kind === "pathVar") vars[source.label] = value;
    else if (value === undefined) return;
    else if (source.kind === "query") query[source.name] = value as string;
    else if (source.kind === "header") headers[source.name] = writePiece(source.parser, value);
    else if (source.kind === "body" || (source.kind as string) === "bodySchema") body = value;
    else if ((source.kind as string) === "queryObject") Object.assign(query, value);
    else
      throw new ControllerError(
        "NOT_A_ROUTE",
        nameOf(cls),
        String(method),
        `the client cannot send parameter ${i} (${source.kind}); call the route with fetch instead`,
      );
  });
  for (const [name, value] of Object.entries(query)) {
    const source = args.find((a) => a?.kind === "query" && a.name === name) as
      | Extract<ArgSource, { kind: "query" }>
      | undefined;
    if (source !== undefined && !Array.isArray(value)) query[name] = writePiece(source.parser, value);
  }
  return [vars, { query, headers, ...(body === undefined ? {} : { body }) }];
}

/** A query or header value as its parser writes it (`toUrlPiece`), else `String`. */
function writePiece(parser: { toUrlPiece?(value: never): string }, value: unknown): string {
  return typeof parser.toUrlPiece === "function" ? parser.toUrlPiece(value as never) : String(value);
}
