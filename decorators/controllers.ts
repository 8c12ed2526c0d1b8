import type { PathParser } from "../src/parsers/parser.js";
import { match, PatternError, parsePattern, route, type ParsedPattern, type VariablePart } from "../src/pattern/index.js";
import type { RoutedRequest } from "../src/request.js";
import { checkUnreachable, type UnreachablePolicy } from "../src/routes/shadow.js";
import { alt, described, type Handler, type Route, type RouteNode } from "../src/tree.js";
import { ControllerError } from "./errors.js";
import { handlerInfoOf } from "./openapi.js";
import {
  declaredParamTypes,
  matchesOf,
  nameOf,
  paramsOf,
  routesOf,
  where,
  type ClassLike,
  type ParamRecord,
  type RouteRecord,
} from "./metadata.js";

/*
 * Metadata → tree. Each class becomes `match(prefix, alt(route(pattern, handler), …))` (or just the
 * `alt` without a `@Match`), built with the very `route`/`match` of the functional API, so the tree is
 * the one the functional form would build; `controllers([A, B])` is `alt(A's tree, B's tree)`.
 * Everything that can be wrong is checked here, once, before any request.
 */

/** A controller: any class (abstract ones too, when a resolver supplies a concrete instance). */
export type ControllerClass<T extends object = object> = abstract new (...args: never[]) => T;

/**
 * Obtains the instance that serves a controller's routes: `(C) => container.resolve(C)` for
 * tsyringe, `(C) => container.get(C)` for inversify, `(C) => Container.get(C)` for typedi. Called once
 * per class, when `controllers()` runs, and must return the instance itself (not a promise).
 *
 * The class is typed as a plain constructor, the shape DI containers take as a token; it is one of
 * the classes given to `controllers()`.
 */
export type Resolver = (controller: new (...args: unknown[]) => object) => object;

/** Options of {@link controllers}. */
export interface ControllersOptions {
  /** How a controller's instance is obtained; `new C()` (no arguments) unless given. */
  readonly resolve?: Resolver;
  /** What to do about a route earlier routes always catch: `"ignore"` (default), `"warn"` or `"throw"`. */
  readonly unreachable?: UnreachablePolicy;
}

/**
 * The route tree of decorated controller classes, mountable anywhere a route is (`alt`, `match`,
 * `toApplication`, `inject`). Routes are tried in the order of `classes`, and within a class in the
 * order its methods are declared. Each class is resolved once, when this runs.
 *
 * Throws, naming the class and method: a `PatternError` for a malformed `@Match`/`@Route` pattern, and
 * a {@link ControllerError} for a misdeclared controller (a `@PathVar` label the pattern lacks, a
 * pattern label with no `@PathVar`, two `@Route`s on a method, a parameter type that contradicts the
 * pattern's type, a class with no routes, …).
 */
export function controllers(classes: readonly ControllerClass[], options: ControllersOptions = {}): Route {
  if (!Array.isArray(classes)) throw new TypeError("controllers: expected an array of controller classes");
  const resolve = options.resolve ?? construct;
  const seen = new Set<unknown>();
  const trees = classes.map((cls) => {
    if (typeof cls !== "function" || cls.prototype === undefined) {
      throw new ControllerError("NOT_A_CLASS", describe(cls), undefined, "controllers() expects classes, and this is not one");
    }
    if (seen.has(cls)) {
      throw new ControllerError("DUPLICATE_CONTROLLER", nameOf(cls), undefined, "the class is given to controllers() twice");
    }
    seen.add(cls);
    return controllerTree(cls, resolve);
  });
  const tree = alt(...trees);
  checkUnreachable(tree, options.unreachable, "controllers");
  return tree;
}

function construct(controller: new () => object): object {
  return new controller();
}

function describe(value: unknown): string {
  if (typeof value === "function") return value.name === "" ? "(anonymous function)" : value.name;
  return value === null ? "null" : typeof value;
}

/** A route method, checked: its pattern and how to fill its parameters. */
interface PlannedRoute {
  readonly method: string | symbol;
  readonly pattern: string;
  /** Per parameter position: a label, the request, or nothing. */
  readonly args: readonly ArgSource[];
}

type ArgSource = { readonly label: string } | "request" | undefined;

function controllerTree(cls: ControllerClass, resolve: Resolver): RouteNode {
  const prefixPattern = singleMatch(cls);
  const prefix = prefixPattern === undefined ? undefined : parseFor(cls, undefined, "@Match", prefixPattern);
  const routes = routesOf(cls);
  if (routes.length === 0) {
    throw new ControllerError("NO_ROUTES", nameOf(cls), undefined,
      "the class has no @Route method (a controller needs at least one; are its methods decorated?)");
  }
  const params = paramsByMethod(cls, routes);
  const planned = routes.map((r) => planRoute(cls, r, prefix, params.get(r.method) ?? []));

  const instance = instanceOf(cls, resolve);
  const nodes = planned.map((p) => route(p.pattern, described(handlerFor(cls, instance, p), handlerInfoOf(cls, p.method))));
  const inner = alt(...nodes);
  return prefixPattern === undefined ? inner : match(prefixPattern, inner);
}

function singleMatch(cls: ControllerClass): string | undefined {
  const matches = matchesOf(cls);
  if (matches.length > 1) {
    throw new ControllerError("DUPLICATE_MATCH", nameOf(cls), undefined,
      `the class has ${matches.length} @Match decorators (${matches.map((m) => JSON.stringify(m)).join(", ")}); give it one`);
  }
  return matches[0];
}

/** Decorated parameters grouped by method; checks each belongs to a route and has one decorator. */
function paramsByMethod(cls: ControllerClass, routes: readonly RouteRecord[]): Map<string | symbol, ParamRecord[]> {
  const routed = new Map<string | symbol, string>();
  for (const r of routes) {
    const earlier = routed.get(r.method);
    if (earlier !== undefined) {
      throw new ControllerError("DUPLICATE_ROUTE", nameOf(cls), String(r.method),
        `the method has two @Route decorators (${JSON.stringify(earlier)} and ${JSON.stringify(r.pattern)}); ` +
          "a method handles one route (write a second method for the other)");
    }
    routed.set(r.method, r.pattern);
  }
  const byMethod = new Map<string | symbol, ParamRecord[]>();
  for (const p of paramsOf(cls)) {
    if (!routed.has(p.method)) {
      throw new ControllerError("NOT_A_ROUTE", nameOf(cls), String(p.method),
        `${decoratorName(p)} is on a parameter of a method with no @Route`);
    }
    const list = byMethod.get(p.method) ?? [];
    const clash = list.find((q) => q.index === p.index);
    if (clash !== undefined) {
      throw new ControllerError("DUPLICATE_PARAM", nameOf(cls), String(p.method),
        `parameter ${p.index} has two decorators (${decoratorName(clash)} and ${decoratorName(p)}); give it one`);
    }
    list.push(p);
    byMethod.set(p.method, list);
  }
  return byMethod;
}

function decoratorName(p: ParamRecord): string {
  return p.kind === "pathVar" ? `@PathVar(${JSON.stringify(p.label)})` : "@Req()";
}

/** Parses a pattern; a `PatternError` gets the class (and method) in front of its message. */
function parseFor(cls: ClassLike, method: string | symbol | undefined, decorator: string, pattern: string): ParsedPattern {
  try {
    return parsePattern(pattern);
  } catch (error) {
    if (error instanceof PatternError) error.message = `${where(cls, method)}: ${decorator}: ${error.message}`;
    throw error;
  }
}

function variables(parsed: ParsedPattern | undefined): VariablePart[] {
  return parsed === undefined ? [] : parsed.parts.filter((p): p is VariablePart => p.kind === "variable");
}

function planRoute(cls: ControllerClass, r: RouteRecord, prefix: ParsedPattern | undefined, params: readonly ParamRecord[]): PlannedRoute {
  const name = String(r.method);
  const parsed = parseFor(cls, r.method, "@Route", r.pattern);
  const own = variables(parsed);
  const inherited = variables(prefix);
  const clash = own.find((v) => inherited.some((p) => p.label === v.label));
  if (clash !== undefined) {
    const error = new PatternError("DUPLICATE_LABEL", r.pattern, clash.position, clash.label.length,
      `the label "${clash.label}" is captured by the class's @Match(${JSON.stringify(prefix!.pattern)}) too`,
      "each label at most once per route, counting the @Match prefix");
    error.message = `${where(cls, r.method)}: @Route: ${error.message}`;
    throw error;
  }
  const captured = new Map<string, VariablePart>([...inherited, ...own].map((v) => [v.label, v]));
  const types = declaredParamTypes(cls.prototype as object, r.method);
  const args: ArgSource[] = [];
  for (const p of params) {
    if (p.kind === "request") {
      args[p.index] = "request";
      continue;
    }
    const variable = captured.get(p.label);
    if (variable === undefined) {
      const available = [...captured.keys()];
      throw new ControllerError("UNKNOWN_LABEL", nameOf(cls), name,
        `@PathVar(${JSON.stringify(p.label)}) names no label of the pattern ${JSON.stringify(r.pattern)}` +
          (prefix === undefined ? "" : ` under @Match(${JSON.stringify(prefix.pattern)})`) +
          ` (${available.length === 0 ? "it captures none" : `its labels: ${available.join(", ")}`})`);
    }
    checkDeclaredType(cls, name, p.index, p.label, variable, types?.[p.index]);
    args[p.index] = { label: p.label };
  }
  const received = new Set(params.flatMap((p) => (p.kind === "pathVar" ? [p.label] : [])));
  const missing = own.find((v) => !received.has(v.label));
  if (missing !== undefined) {
    throw new ControllerError("MISSING_PATH_VAR", nameOf(cls), name,
      `the pattern ${JSON.stringify(r.pattern)} captures "${missing.label}" but no parameter has ` +
        `@PathVar(${JSON.stringify(missing.label)})`);
  }
  return { method: r.method, pattern: r.pattern, args: Array.from(args) };
}

/**
 * `design:paramtypes` against the parser's `valueType`: `Number` for `Int`, the class for a newtype.
 * No check when either is unknown, or the declared type is `Object` (a union, `unknown`, an interface).
 */
function checkDeclaredType(cls: ControllerClass, method: string, index: number, label: string, variable: VariablePart, declared: unknown): void {
  const valueType = (variable.parser as PathParser<unknown>).valueType;
  if (valueType === undefined || typeof declared !== "function" || declared === Object) return;
  if (declared === valueType || valueType.prototype instanceof declared) return;
  throw new ControllerError("PARAM_TYPE_MISMATCH", nameOf(cls), method,
    `parameter ${index} (@PathVar(${JSON.stringify(label)})) is declared as ${typeName(declared)}, but ` +
      `"${label}:${variable.typeName}" gives ${typeName(valueType)} values`);
}

function typeName(type: { readonly name: string }): string {
  const names: Record<string, string> = { Number: "number", String: "string", Boolean: "boolean", BigInt: "bigint" };
  return names[type.name] ?? type.name;
}

function instanceOf(cls: ControllerClass, resolve: Resolver): object {
  let instance: unknown;
  try {
    instance = resolve(cls as unknown as new (...args: unknown[]) => object);
  } catch (error) {
    throw new ControllerError("RESOLVE_FAILED", nameOf(cls), undefined,
      `could not obtain an instance: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if ((typeof instance !== "object" && typeof instance !== "function") || instance === null) {
    throw new ControllerError("RESOLVE_FAILED", nameOf(cls), undefined, `the resolver gave ${instance === null ? "null" : typeof instance}, not an instance`);
  }
  if (typeof (instance as { then?: unknown }).then === "function") {
    throw new ControllerError("RESOLVE_FAILED", nameOf(cls), undefined,
      "the resolver gave a promise; resolve controllers synchronously (e.g. container.get, not getAsync)");
  }
  return instance;
}

type Methods = Record<string | symbol, (...args: unknown[]) => ReturnType<Handler>>;

/** The handler leaf for one route method: fills the parameters, calls the method on the instance. */
function handlerFor(cls: ControllerClass, instance: object, planned: PlannedRoute): Handler {
  const { method, args } = planned;
  const target = instance as Methods;
  if (typeof target[method] !== "function") {
    throw new ControllerError("NOT_A_METHOD", nameOf(cls), String(method),
      `the instance the resolver gave has no method ${JSON.stringify(String(method))}`);
  }
  const count = args.length;
  // The method is looked up per call, so a spy or a patched method on the instance is honoured.
  const handler: Handler =
    count === 0
      ? () => target[method]!()
      : (request: RoutedRequest) => {
          const values = new Array<unknown>(count);
          for (let i = 0; i < count; i++) {
            const source = args[i];
            values[i] = source === undefined ? undefined : source === "request" ? request : request.vars[source.label];
          }
          return target[method]!(...values);
        };
  Object.defineProperty(handler, "name", { value: where(cls, method) });
  return handler;
}
