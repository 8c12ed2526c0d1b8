// The decorators need Reflect's metadata API when a class is defined, before any user class is
// decorated; importing it here (the entry loads this file) means an app cannot forget it, and it is
// harmless when the app imports it too. See the README, "Decorators".
import "reflect-metadata";
import type { CookieSigner } from "../src/cookies/sign.js";
import type { FormObjectOptions } from "../src/forms/object.js";
import type { PathParser } from "../src/parsers/parser.js";
import type { StandardSchema } from "../src/schema/standard.js";
import type { GuardPredicate, Middleware } from "../src/tree.js";
import type { BodyOptions } from "../src/validate/body.js";
import type { QueryObjectOptions } from "../src/validate/query.js";

/*
 * What the decorators record, and how `controllers()` reads it back. Everything lives ON each class
 * (through `Reflect.defineMetadata`), never in a global store: a class carries its own routes, and two
 * copies of this module see the same metadata. Each class records only what is declared on it; the
 * inheritance rule (see `inheritedRoutes`) is applied when `controllers()` reads it.
 */

const MATCH = "switchyard:match";
const ROUTES = "switchyard:routes";
const PARAMS = "switchyard:params";
const GUARDS = "switchyard:guards";
const MIDDLEWARES = "switchyard:middlewares";

/** A `@Route` as recorded: which method, which pattern. */
export interface RouteRecord {
  readonly method: string | symbol;
  readonly pattern: string;
  /**
   * `"request"`: the method takes the routed request alone, its variables typed by the compiler
   * (`@Handle`), so no `@PathVar` receives the pattern's labels.
   */
  readonly takes?: "request";
}

/** How a `@Query`/`@Header` parameter reads its value. */
export interface ValueOptions {
  /** The parser or Standard Schema; when absent, a parser taken from the parameter's declared type. */
  readonly type?: PathParser<unknown> | StandardSchema | undefined;
  /** A missing value is `undefined` instead of a 400. */
  readonly optional?: boolean | undefined;
  /** Every value of a repeated query key, as an array (query only). */
  readonly array?: boolean | undefined;
}

/** How a `@Cookie` parameter reads its value: `@Query`'s options, and the signer of a signed cookie. */
export interface CookieValueOptions extends ValueOptions {
  /** The cookie is signed: verified with this signer. */
  readonly signed?: CookieSigner | undefined;
}

/** How a `@Body` parameter reads its value: `body()`'s options and the schema or DTO class. */
export interface BodyRecordOptions extends BodyOptions {
  /** The Standard Schema or DTO class; when absent, the parameter's declared type. */
  readonly type?: Function | StandardSchema | undefined;
}

/** How a whole-query `@Query()` parameter reads its value: `queryObject()`'s options and the schema or DTO class. */
export interface QueryObjectRecordOptions extends QueryObjectOptions {
  /** The Standard Schema or DTO class; when absent, the parameter's declared type. */
  readonly type?: Function | StandardSchema | undefined;
}

/** How a whole-form `@Form()` parameter reads its value: `formObject()`'s options and the schema or DTO class. */
export interface FormObjectRecordOptions extends FormObjectOptions {
  /** The Standard Schema or DTO class; when absent, the parameter's declared type. */
  readonly type?: Function | StandardSchema | undefined;
}

/** What a decorated parameter receives. */
export type ParamSource =
  | { readonly kind: "pathVar"; readonly label: string }
  | { readonly kind: "request" }
  | { readonly kind: "query"; readonly name: string; readonly options: ValueOptions }
  | { readonly kind: "queryObject"; readonly options: QueryObjectRecordOptions }
  | { readonly kind: "header"; readonly name: string; readonly options: ValueOptions }
  | { readonly kind: "cookie"; readonly name: string; readonly options: CookieValueOptions }
  | { readonly kind: "body"; readonly options: BodyRecordOptions }
  | { readonly kind: "formField"; readonly name: string; readonly options: ValueOptions }
  | { readonly kind: "formObject"; readonly options: FormObjectRecordOptions }
  | { readonly kind: "file"; readonly name: string; readonly optional: boolean }
  | { readonly kind: "files"; readonly name: string };

/** A decorated parameter: where it is, what it receives. */
export type ParamRecord = ParamSource & { readonly method: string | symbol; readonly index: number };

/** What `@Guard` takes: a predicate on the request, or a guard class. */
export type GuardSpec =
  | GuardPredicate<never>
  | (abstract new (
      ...args: never[]
    ) => { canActivate(request: never): boolean | Promise<boolean> });

/** A `@Guard` as recorded: on the class (`method` undefined) or on one method. */
export interface GuardRecord {
  readonly method: string | symbol | undefined;
  readonly guard: GuardSpec;
}

/** What `@Use` takes: a middleware function, or a class whose instances `intercept(request, next)`. */
export type MiddlewareSpec = Middleware<never> | (abstract new (...args: never[]) => { intercept: Middleware<never> });

/** A `@Use` as recorded: on the class (`method` undefined) or on one method. */
export interface MiddlewareRecord {
  readonly method: string | symbol | undefined;
  readonly middleware: MiddlewareSpec;
}

/** Any class: what the decorators record on. */
export type ClassLike = Function;

function append<T>(key: string, target: ClassLike, item: T): void {
  const list = (Reflect.getOwnMetadata(key, target) as readonly T[] | undefined) ?? [];
  Reflect.defineMetadata(key, [...list, item], target);
}

function prepend<T>(key: string, target: ClassLike, item: T): void {
  const list = (Reflect.getOwnMetadata(key, target) as readonly T[] | undefined) ?? [];
  Reflect.defineMetadata(key, [item, ...list], target);
}

function own<T>(key: string, target: ClassLike): readonly T[] {
  const list: unknown = Reflect.getOwnMetadata(key, target);
  return Array.isArray(list) ? (list as readonly T[]) : [];
}

/** Records a `@Match` pattern on a class. */
export function recordMatch(target: ClassLike, pattern: string): void {
  append(MATCH, target, pattern);
}
/** Records a `@Route` method, in declaration order. */
export function recordRoute(target: ClassLike, route: RouteRecord): void {
  append(ROUTES, target, route);
}
/** Records a decorated parameter. */
export function recordParam(target: ClassLike, param: ParamRecord): void {
  append(PARAMS, target, param);
}
/**
 * Records a `@Guard`. Decorators apply bottom-up, so each is put in front: the list reads in the
 * order the decorators are written, which is the order they run in.
 */
export function recordGuard(target: ClassLike, guard: GuardRecord): void {
  prepend(GUARDS, target, guard);
}

/** Records a `@Use`; like {@link recordGuard}, the list reads in the order the decorators are written. */
export function recordMiddleware(target: ClassLike, middleware: MiddlewareRecord): void {
  prepend(MIDDLEWARES, target, middleware);
}

/** The class's own `@Match` patterns (more than one is a startup error). */
export function matchesOf(target: ClassLike): readonly string[] {
  return own(MATCH, target);
}
/** The class's own `@Route`s, in the order they were declared. */
export function routesOf(target: ClassLike): readonly RouteRecord[] {
  return own(ROUTES, target);
}
/** The class's own decorated parameters, all methods. */
export function paramsOf(target: ClassLike): readonly ParamRecord[] {
  return own(PARAMS, target);
}
/** The class's own `@Guard`s, class-level and per method, in the order written. */
export function guardsOf(target: ClassLike): readonly GuardRecord[] {
  return own(GUARDS, target);
}

/** The class's own `@Use`s, class-level and per method, in the order written. */
export function middlewaresOf(target: ClassLike): readonly MiddlewareRecord[] {
  return own(MIDDLEWARES, target);
}

/** The class, then its base classes, nearest first (up to, not including, `Function.prototype`). */
export function classChain(target: ClassLike): ClassLike[] {
  const chain: ClassLike[] = [];
  for (let c: unknown = target; typeof c === "function" && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    chain.push(c as ClassLike);
  }
  return chain;
}

/** A route of a controller, with the class in its chain that declared it. */
export interface InheritedRoute {
  /** The class whose `@Route` this is: its parameter and method decorators apply. */
  readonly owner: ClassLike;
  readonly route: RouteRecord;
}

/**
 * The routes of a controller with inheritance, the rule of routing-controllers and NestJS: the class's
 * own routes in declaration order, then its base class's, then that one's base's… A method declared
 * with `@Route` on several levels counts once, where the nearest class declares it (an override with
 * its own `@Route` replaces the base's route); an override without `@Route` keeps the base's route,
 * and the override is what runs.
 */
export function inheritedRoutes(target: ClassLike): InheritedRoute[] {
  const taken = new Set<string | symbol>();
  const routes: InheritedRoute[] = [];
  for (const owner of classChain(target)) {
    const ownRoutes = routesOf(owner);
    for (const route of ownRoutes) {
      if (!taken.has(route.method)) routes.push({ owner, route });
    }
    for (const route of ownRoutes) taken.add(route.method);
  }
  return routes;
}

/** The nearest `@Match` patterns up the chain: a subclass without its own shares its base's prefix. */
export function inheritedMatches(target: ClassLike): readonly string[] {
  for (const c of classChain(target)) {
    const matches = matchesOf(c);
    if (matches.length > 0) return matches;
  }
  return [];
}

/**
 * The declared parameter types of a method, as TypeScript records them (`design:paramtypes`) when
 * `emitDecoratorMetadata` is on; `undefined` otherwise.
 */
export function declaredParamTypes(prototype: object, method: string | symbol): readonly unknown[] | undefined {
  const types: unknown = Reflect.getMetadata("design:paramtypes", prototype, method);
  return Array.isArray(types) ? types : undefined;
}

/** A readable name for a class in messages. */
export function nameOf(target: ClassLike): string {
  return typeof target.name !== "string" || target.name === "" ? "(anonymous class)" : target.name;
}

/** `Class.method`, for messages. */
export function where(target: ClassLike, method?: string | symbol): string {
  return method === undefined ? nameOf(target) : `${nameOf(target)}.${String(method)}`;
}
