import { type CallInit, type ClientOptions, type ResultOf, sender } from "../src/client/index.js";
import type { FormFile } from "../src/forms/part.js";
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
 * a query value, a header, the JSON body, a field or file of a `multipart/form-data` body). The routes
 * come from the tree at run time: the class's methods are found in it as `urlFor` finds them.
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
      ? (...args: ClientArgs<A>) => Promise<ResultOf<Awaited<R>>>
      : never;

/**
 * A @PathVar-style method's parameters as its client takes them: a file the server reads as a
 * `FormFile` (`@File`, `@Files`) is sent from a `Blob` (a `File` keeps its name).
 */
type ClientArgs<A extends readonly unknown[]> = { [K in keyof A]: ClientArg<A[K]> };

type ClientArg<T> = T extends FormFile
  ? Blob
  : T extends readonly FormFile[]
    ? readonly Blob[]
    : T extends FormFile | undefined
      ? Blob | undefined
      : T;

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
  let form: FormData | undefined;
  const fields = (): FormData => {
    form ??= new FormData();
    return form;
  };
  args.forEach((source, i) => {
    const value = values[i];
    if (source === undefined || source.kind === "request") return;
    if (source.kind === "pathVar") vars[source.label] = value;
    else if (value === undefined) return;
    else if (source.kind === "query") query[source.name] = value as string;
    else if (source.kind === "header") headers[source.name] = writePiece(source.parser, value);
    else if (source.kind === "body" || source.kind === "bodySchema") body = value;
    else if (source.kind === "queryObject") Object.assign(query, value);
    else if (source.kind === "formField") fields().append(source.name, writePiece(source.parser, value));
    else if (source.kind === "file") appendFile(fields(), source.name, value);
    else if (source.kind === "files")
      for (const file of value as readonly unknown[]) appendFile(fields(), source.name, file);
    else if (source.kind === "formObject")
      for (const [name, field] of Object.entries(value as object)) {
        if (field === undefined) continue;
        if (field instanceof Blob) appendFile(fields(), name, field);
        else if (Array.isArray(field)) for (const item of field) appendField(fields(), name, item);
        else appendField(fields(), name, field);
      }
    else
      throw new ControllerError(
        "NOT_A_ROUTE",
        nameOf(cls),
        String(method),
        `the client cannot send parameter ${i} (${source.kind}); call the route with fetch instead`,
      );
  });
  if (form !== undefined && body !== undefined)
    throw new ControllerError("NOT_A_ROUTE", nameOf(cls), String(method), "a JSON body and a form in one request");
  for (const [name, value] of Object.entries(query)) {
    const source = args.find((a) => a?.kind === "query" && a.name === name) as
      | Extract<ArgSource, { kind: "query" }>
      | undefined;
    if (source !== undefined && !Array.isArray(value)) query[name] = writePiece(source.parser, value);
  }
  return [vars, { query, headers, ...(body === undefined ? {} : { body }), ...(form === undefined ? {} : { form }) }];
}

/** A file argument as a form part: a `Blob` (a `File` keeps its name). */
function appendFile(form: FormData, name: string, file: unknown): void {
  if (!(file instanceof Blob))
    throw new TypeError(`clientFor: the file "${name}" must be a Blob or a File, got ${typeof file}`);
  form.append(name, file);
}

/** A whole-form field: a file, or text (`String` of anything else). */
function appendField(form: FormData, name: string, value: unknown): void {
  if (value instanceof Blob) form.append(name, value);
  else form.append(name, String(value));
}

/** A query or header value as its parser writes it (`toUrlPiece`), else `String`. */
function writePiece(parser: { toUrlPiece?(value: never): string }, value: unknown): string {
  return typeof parser.toUrlPiece === "function" ? parser.toUrlPiece(value as never) : String(value);
}
