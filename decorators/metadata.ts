// The decorators need Reflect's metadata API when a class is defined, before any user class is
// decorated; importing it here (the entry loads this file) means an app cannot forget it, and it is
// harmless when the app imports it too. See the README, "Decorators".
import "reflect-metadata";

/*
 * What the decorators record, and how `controllers()` reads it back. Everything lives ON each class
 * (through `Reflect.defineMetadata`), never in a global store: a class carries its own routes, and two
 * copies of this module see the same metadata. Only a class's own metadata counts (nothing inherited).
 */

const MATCH = "switchyard:match";
const ROUTES = "switchyard:routes";
const PARAMS = "switchyard:params";

/** A `@Route` as recorded: which method, which pattern. */
export interface RouteRecord {
  readonly method: string | symbol;
  readonly pattern: string;
}

/** A decorated parameter: `@PathVar(label)` or `@Req()`. */
export type ParamRecord =
  | { readonly kind: "pathVar"; readonly method: string | symbol; readonly index: number; readonly label: string }
  | { readonly kind: "request"; readonly method: string | symbol; readonly index: number };

/** Any class: what the decorators record on. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- a decorator target: any class
export type ClassLike = Function;

function append<T>(key: string, target: ClassLike, item: T): void {
  const list = (Reflect.getOwnMetadata(key, target) as readonly T[] | undefined) ?? [];
  Reflect.defineMetadata(key, [...list, item], target);
}

function own<T>(key: string, target: ClassLike): readonly T[] {
  return (Reflect.getOwnMetadata(key, target) as readonly T[] | undefined) ?? [];
}

/** Records a `@Match` pattern on a class. */
export function recordMatch(target: ClassLike, pattern: string): void {
  append(MATCH, target, pattern);
}
/** Records a `@Route` method, in declaration order. */
export function recordRoute(target: ClassLike, route: RouteRecord): void {
  append(ROUTES, target, route);
}
/** Records a `@PathVar`/`@Req` parameter. */
export function recordParam(target: ClassLike, param: ParamRecord): void {
  append(PARAMS, target, param);
}

/** Every `@Match` pattern on the class itself (more than one is a startup error). */
export function matchesOf(target: ClassLike): readonly string[] {
  return own(MATCH, target);
}
/** The class's `@Route`s, in the order they were declared. */
export function routesOf(target: ClassLike): readonly RouteRecord[] {
  return own(ROUTES, target);
}
/** The class's decorated parameters, all methods. */
export function paramsOf(target: ClassLike): readonly ParamRecord[] {
  return own(PARAMS, target);
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
  return target.name === "" ? "(anonymous class)" : target.name;
}

/** `Class.method`, for messages. */
export function where(target: ClassLike, method?: string | symbol): string {
  return method === undefined ? nameOf(target) : `${nameOf(target)}.${String(method)}`;
}

