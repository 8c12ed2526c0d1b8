import type { CheckedPattern, PatternVars } from "../src/pattern/types.js";
import type { PatternProblem } from "../src/pattern/types.js";
import type { HandlerResult } from "../src/reply.js";
import type { RoutedRequest } from "../src/request.js";
import { methodDecorator } from "./class-or-method.js";
import { recordMatch, recordRoute, type ClassLike } from "./metadata.js";

/*
 * The checked style: a route method takes the routed request, typed by the user, and the compiler
 * checks that type against the route's pattern — and the class's prefix, when the class extends
 * `Controller(prefix)`:
 *
 *   class Users extends Controller("/orgs/org:Text/users") {
 *     @Handle("GET /id:Int")
 *     byId(req: RoutedRequest<{ org: string; id: number }>) { … }
 *   }
 *
 * A label the route does not capture (`idd`), a variable it lacks, or a type it does not give
 * (`id: string` for `id:Int`) is a type error on the decorator. A method decorator sees its class's
 * instance type (the `target` of a legacy call, the `This` of a standard context), so the prefix
 * travels as a phantom member of the `Controller(prefix)` base class; a class decorator cannot tell
 * its method decorators anything, so `@Match`'s prefix stays invisible to them.
 */

declare const prefixOf: unique symbol;

/**
 * The prefix pattern of a class extending `Controller(prefix)`, for the type checker only. An
 * interface, so that declaration files can name the base class.
 */
export interface ControllerPrefix<P extends string> {
  readonly [prefixOf]?: P;
}

/** A `Controller(prefix)` base class: no members, the prefix for the type checker. */
export type ControllerBase<P extends string> = abstract new () => ControllerPrefix<P>;

/** The prefix as a mixin over a base class (`Controller(prefix, Base)`). */
// biome-ignore lint/suspicious/noExplicitAny: TypeScript's mixin rule wants exactly `...args: any[]`
export type PrefixMixin<P extends string> = abstract new (...args: any[]) => ControllerPrefix<P>;

/** Any class a controller may extend besides `Controller(prefix)`. */
// biome-ignore lint/suspicious/noExplicitAny: the mixin pattern needs `any[]` constructor arguments
export type BaseClass = abstract new (...args: any[]) => object;

/** The prefix pattern of a controller instance type (`""` for none). */
export type PrefixOf<T> = T extends ControllerPrefix<infer P> ? (P extends string ? P : "") : "";

/** The variables a route method of class instance type `T` under pattern `P` receives. */
export type HandleVars<T, P extends string> = PatternVars<PrefixOf<T>> & PatternVars<P>;

/** What a checked route method may be: takes the routed request (or nothing), returns a handler result. */
// biome-ignore lint/suspicious/noExplicitAny: a method's parameters are checked by HandleProblem, not here
export type HandleMethod = (...args: any[]) => HandlerResult | Promise<HandlerResult>;

/** The variables a method says it reads: from its first parameter, a `RoutedRequest<V>`. */
type Wanted<M> = M extends () => unknown
  ? {}
  : M extends (request: RoutedRequest<infer W>, ...rest: never[]) => unknown
    ? W
    : NotARequest;

declare const notARequest: unique symbol;
interface NotARequest {
  readonly [notARequest]: true;
}

/** `Type` in the pattern part `label:Type` (the prefix's or the route's). */
type TypeIn<P extends string, L extends string> = P extends `${string}/${L}:${infer Rest}`
  ? Rest extends `${infer T}/${string}`
    ? T
    : Rest extends `${infer T} ${string}`
      ? T
      : Rest
  : "?";

type Where<T, P extends string> = PrefixOf<T> extends "" ? `'${P}'` : `'${P}' under Controller('${PrefixOf<T>}')`;

/**
 * What is wrong with a checked route method, as a message, or `never`: a pattern whose labels clash
 * with the prefix's, a first parameter that is not the routed request, a variable the route does not
 * capture, or one whose declared type the pattern's type does not give.
 */
export type HandleProblem<T, P extends string, M> = string extends P | PrefixOf<T>
  ? never
  : [PatternProblem<P, PatternVars<PrefixOf<T>>>] extends [never]
    ? VarsProblem<T, P, Wanted<M>, HandleVars<T, P>>
    : `invalid route pattern: ${PatternProblem<P, PatternVars<PrefixOf<T>>>}`;

type VarsProblem<T, P extends string, W, G> = W extends NotARequest
  ? "@Handle: the method's parameter must be the routed request, e.g. byId(req: RoutedRequest<{ id: number }>) (for @PathVar parameters, use @Route)"
  : string extends keyof W
    ? never // RoutedRequest without variables (Record<string, unknown>): it reads none by name
    : {
        [K in keyof W]-?: K extends keyof G
          ? [G[K]] extends [W[K]]
            ? never
            : `req.vars.${K & string} is declared as a type that '${K & string}:${TypeIn<`${PrefixOf<T>}/${P}`, K & string>}' does not give`
          : `the method reads req.vars.${K & string}, but ${Where<T, P>} captures no '${K & string}'`;
      }[keyof W];

/** The check a decorator's argument carries: nothing when the method fits, a named message when not. */
export type HandleCheck<T, P extends string, M> = [HandleProblem<T, P, M>] extends [never]
  ? unknown
  : { readonly "switchyard-router": HandleProblem<T, P, M> };

/** What `@Handle` returns: a method decorator for both call shapes, checking the method against the pattern. */
export interface HandleDecorator<P extends string> {
  /** TC39 standard decorators. */
  <T, M extends HandleMethod>(value: M & HandleCheck<T, P, M>, context: ClassMethodDecoratorContext<T, M>): void;
  /** TypeScript's legacy decorators (`experimentalDecorators`). */
  <T extends object, M extends HandleMethod>(
    target: T,
    method: string | symbol,
    descriptor: TypedPropertyDescriptor<M> & HandleCheck<T, P, M>,
  ): void;
}

/**
 * Method decorator, the checked style: the method handles this route (the decorator form of
 * `route(pattern, handler)`, like `@Route`) and takes the routed request as its one parameter, typed
 * `RoutedRequest<{ … }>` with the variables it reads; the compiler checks them against the pattern
 * and, when the class extends `Controller(prefix)`, the prefix. With a pattern that is not a literal
 * (a `string`), only the startup checks apply. Works under legacy and TC39 standard decorators, and
 * needs no parameter decorator nor decorator metadata.
 */
export function Handle<const P extends string>(pattern: CheckedPattern<P>): HandleDecorator<P> {
  if (typeof pattern !== "string") throw new TypeError(`@Handle: the pattern must be a string, got ${typeof pattern}`);
  const decorator = methodDecorator("@Handle", (owner, method) => recordHandle(owner, method, pattern));
  return decorator as HandleDecorator<P>;
}

/**
 * Records a checked route: a `@Route` whose method takes the request alone (`takes: "request"`: it is
 * called with the routed request, and no `@PathVar` need receive the pattern's labels, which the
 * compiler checked).
 */
function recordHandle(owner: ClassLike, method: string | symbol, pattern: string): void {
  recordRoute(owner, { method, pattern, takes: "request" });
}

/** The classes `Controller(prefix)` made: their `@Match` is the prefix's. */
const controllerBases = new WeakSet<ClassLike>();

/** True for a class made by `Controller(prefix)`. */
export function isControllerBase(cls: ClassLike): boolean {
  return controllerBases.has(cls);
}

/**
 * A base class for a controller in the checked style: `class Users extends Controller("/users")`
 * is `@Match("/users") class Users`, and the compiler also knows the prefix, so `@Handle` methods are
 * checked against its variables too. `Controller(prefix, Base)` extends `Base` (a class of your own
 * whose routes are inherited as usual).
 */
export function Controller<const P extends string>(prefix: CheckedPattern<P>): ControllerBase<P>;
export function Controller<const P extends string, B extends BaseClass>(
  prefix: CheckedPattern<P>,
  base: B,
): B & PrefixMixin<P>;
export function Controller(prefix: string, base?: BaseClass): BaseClass {
  if (typeof prefix !== "string") throw new TypeError(`Controller: the prefix must be a string, got ${typeof prefix}`);
  if (base !== undefined && typeof base !== "function") throw new TypeError("Controller: the base must be a class");
  const made = base === undefined ? class {} : class extends (base as new () => object) {};
  Object.defineProperty(made, "name", { value: `Controller(${JSON.stringify(prefix)})` });
  recordMatch(made, prefix);
  controllerBases.add(made);
  return made;
}
