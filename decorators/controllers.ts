import { match, route } from "../src/pattern/index.js";
import type { RoutedRequest } from "../src/request.js";
import { readParams, readParamsAsync } from "../src/params.js";
import { checkUnreachable, type UnreachablePolicy } from "../src/tools/shadow.js";
import { isThenable } from "../src/thenable.js";
import {
  alt,
  described,
  guard,
  type GuardPredicate,
  type Handler,
  type Middleware,
  type Next,
  type NextRoutes,
  type Route,
  type RouteNode,
  use,
} from "../src/tree.js";
import { argReader, type ArgReader, waitsFor } from "./arguments.js";
import { checkBodyLibraries } from "./body.js";
import { ControllerError } from "./errors.js";
import { isGuardClass } from "./guard.js";
import { isInterceptorClass } from "./use.js";
import { handlerInfoOf } from "./openapi.js";
import { isControllerBase } from "./checked.js";
import {
  classChain,
  matchesOf,
  nameOf,
  where,
  type ClassLike,
  type GuardSpec,
  type MiddlewareSpec,
} from "./metadata.js";
import { planController, type ArgSource, type PlannedController, type PlannedRoute } from "./plan.js";
import { adoptStandardSteps, usesStandardDecorators } from "./standard.js";

/*
 * Plan → tree. Each class becomes `match(prefix, alt(route(pattern, guard(…, handler)), …))` (or just
 * the `alt` without a `@Match`), built with the very `route`/`match`/`guard` of the functional API, so
 * the tree is the one the functional form would build; `controllers([A, B])` is `alt(A's, B's)`.
 */

/** A controller: any class (abstract ones too, when a resolver supplies a concrete instance). */
export type ControllerClass<T extends object = object> = abstract new (...args: never[]) => T;

/**
 * Obtains the instance that serves a controller's routes (or a guard class's instance):
 * `(C) => container.resolve(C)` for tsyringe, `(C) => container.get(C)` for inversify. Called once
 * per class, when `controllers()` runs, and must return the instance itself (not a promise).
 *
 * The class is typed as a plain constructor, the shape DI containers take as a token.
 */
export type Resolver = (controller: new (...args: unknown[]) => object) => object;

/**
 * Obtains a request-scoped controller (or guard) instance for one request, e.g.
 * `(C, req) => childContainerFor(req).resolve(C)`. Called on every request the class serves.
 */
export type RequestResolver = (controller: new (...args: unknown[]) => object, request: RoutedRequest) => object;

/** Options of {@link controllers} for singleton controllers (the default). */
export interface ControllersOptions {
  /** One instance per class, obtained when `controllers()` runs. */
  readonly scope?: "singleton";
  /** How a controller's instance is obtained; `new C()` (no arguments) unless given. */
  readonly resolve?: Resolver;
  /** What to do about a route earlier routes always catch: `"ignore"` (default), `"warn"` or `"throw"`. */
  readonly unreachable?: UnreachablePolicy;
}

/** Options of {@link controllers} for request-scoped controllers. */
export interface RequestScopeOptions {
  /** An instance per request: `resolve(C, request)` runs for each request a route of `C` answers. */
  readonly scope: "request";
  readonly resolve: RequestResolver;
  /** What to do about a route earlier routes always catch: `"ignore"` (default), `"warn"` or `"throw"`. */
  readonly unreachable?: UnreachablePolicy;
}

/**
 * The route tree of decorated controller classes, mountable anywhere a route is (`alt`, `match`,
 * `toApplication`, `inject`). Routes are tried in the order of `classes`, and within a class in the
 * order its methods are declared (its own routes, then inherited ones, see the README). With the
 * default singleton scope each class is resolved once, when this runs.
 *
 * Throws, naming the class and method: a `PatternError` for a malformed `@Match`/`@Route` pattern, and
 * a {@link ControllerError} for a misdeclared controller (a `@PathVar` label the pattern lacks, a
 * pattern label with no `@PathVar`, two `@Route`s on a method, a parameter type that contradicts the
 * pattern's type, a class with no routes, …).
 */
export function controllers(classes: readonly ControllerClass[], options?: ControllersOptions): Route;
/**
 * Request-scoped controllers: the same tree, but each request a route of class `C` answers gets its
 * instance from `resolve(C, request)` (e.g. a child container per request). Guard classes are
 * resolved per request too. Opt-in: singleton controllers cost nothing per request.
 */
export function controllers(classes: readonly ControllerClass[], options: RequestScopeOptions): Route;
export function controllers(
  classes: readonly ControllerClass[],
  options: ControllersOptions | RequestScopeOptions = {},
): Route {
  if (!Array.isArray(classes)) throw new TypeError("controllers: expected an array of controller classes");
  const scope = options.scope ?? "singleton";
  if (scope !== "singleton" && scope !== "request")
    throw new TypeError(`controllers: scope must be "singleton" or "request", got ${JSON.stringify(scope)}`);
  if (scope === "request" && typeof options.resolve !== "function") {
    throw new TypeError('controllers: scope "request" needs resolve: (C, request) => instance');
  }
  const instances =
    scope === "request"
      ? perRequest(options.resolve as RequestResolver)
      : singletons((options.resolve as Resolver | undefined) ?? construct);
  const seen = new Set<unknown>();
  const trees = classes.map((cls) => {
    if (typeof cls !== "function" || cls.prototype === undefined) {
      throw new ControllerError(
        "NOT_A_CLASS",
        describe(cls),
        undefined,
        "controllers() expects classes, and this is not one",
      );
    }
    if (seen.has(cls)) {
      throw new ControllerError(
        "DUPLICATE_CONTROLLER",
        nameOf(cls),
        undefined,
        "the class is given to controllers() twice",
      );
    }
    seen.add(cls);
    return controllerTree(cls, instances);
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

/**
 * Where instances come from: `fixed` gives the one instance for the whole app (singleton scope), or
 * `undefined` when each request needs its own, which `forRequest` then obtains.
 */
interface Instances {
  fixed(cls: ClassLike): object | undefined;
  forRequest(cls: ClassLike, request: RoutedRequest): object;
}

function singletons(resolve: Resolver): Instances {
  const made = new Map<ClassLike, object>();
  const fixed = (cls: ClassLike): object => {
    let instance = made.get(cls);
    if (instance === undefined) {
      instance = obtain(cls, () => resolve(cls as new () => object));
      made.set(cls, instance);
    }
    return instance;
  };
  return { fixed, forRequest: fixed };
}

function perRequest(resolve: RequestResolver): Instances {
  return {
    fixed: () => undefined,
    forRequest: (cls, request) => obtain(cls, () => resolve(cls as new () => object, request)),
  };
}

/** Runs a resolver and checks that it gave an instance. */
function obtain(cls: ClassLike, resolve: () => unknown): object {
  let instance: unknown;
  try {
    instance = resolve();
  } catch (error) {
    throw new ControllerError(
      "RESOLVE_FAILED",
      nameOf(cls),
      undefined,
      `could not obtain an instance: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if ((typeof instance !== "object" && typeof instance !== "function") || instance === null) {
    throw new ControllerError(
      "RESOLVE_FAILED",
      nameOf(cls),
      undefined,
      `the resolver gave ${instance === null ? "null" : typeof instance}, not an instance`,
    );
  }
  if (isThenable(instance)) {
    throw new ControllerError(
      "RESOLVE_FAILED",
      nameOf(cls),
      undefined,
      "the resolver gave a promise; resolve controllers synchronously (e.g. container.get, not getAsync)",
    );
  }
  return instance;
}

function controllerTree(cls: ClassLike, instances: Instances): RouteNode {
  const plan = planned(cls);
  if (plan.routes.some((r) => r.args.some((a) => a?.kind === "body"))) checkBodyLibraries();
  const instance = instances.fixed(cls);
  const nodes = plan.routes.map((planned) => {
    const leaf = described(
      handlerFor(cls, planned, instance, instances),
      handlerInfoOf(cls, planned.method, planned.args),
    );
    const guarded = planned.guards.reduceRight<Next<never>>(
      (next, g) => guard(predicateOf(g, instances), next),
      leaf as Next<never>,
    );
    // middlewares outside the guards: they see a refused guard as null from next()
    return route(planned.pattern, wrapped(planned.middlewares, guarded, instances) as Next);
  });
  const inner = wrapped(plan.middlewares, alt(...nodes), instances);
  return plan.prefix === undefined ? (inner as RouteNode) : match(plan.prefix, inner as Next);
}

/**
 * The checked plan of a controller: standard decorators' steps replayed onto its classes first (see
 * standard.ts), and each `@Handle` method called with the request alone.
 */
export function planned(cls: ClassLike): PlannedController {
  adoptStandardSteps(cls);
  checkControllerPrefix(cls);
  try {
    return planController(cls);
  } catch (error) {
    if (error instanceof ControllerError && error.code === "MISSING_PATH_VAR" && usesStandardDecorators(cls)) {
      error.message +=
        "\nhint: this class was compiled with TC39 standard decorators, which have no parameter decorators: " +
        'write the method in the checked style, @Handle("…") method(req: RoutedRequest<{ … }>), which reads req.vars';
    }
    throw error;
  }
}

/**
 * A class extending `Controller(prefix)` takes its prefix from there: a `@Match` on it or a class
 * between would silently replace the prefix the compiler checked its `@Handle` methods against.
 */
function checkControllerPrefix(cls: ClassLike): void {
  const chain = classChain(cls);
  const base = chain.findIndex(isControllerBase);
  if (base === -1) return;
  const other = chain.slice(0, base).find((level) => matchesOf(level).length > 0);
  if (other === undefined) return;
  throw new ControllerError(
    "DUPLICATE_MATCH",
    nameOf(cls),
    undefined,
    `${nameOf(other)} has @Match(${JSON.stringify(matchesOf(other)[0])}) but extends ${nameOf(chain[base]!)}, ` +
      "whose prefix the compiler checks the routes against; give the prefix in one place",
  );
}

/** `next` inside `use` nodes for `middlewares`, the first outermost. */
function wrapped(middlewares: readonly MiddlewareSpec[], next: Next<never>, instances: Instances): Next<never> {
  return middlewares.reduceRight<Next<never>>((inner, m) => use(middlewareOf(m, instances), inner), next);
}

/** A middleware: the function itself, or `intercept` of the middleware class's instance. */
function middlewareOf(spec: MiddlewareSpec, instances: Instances): Middleware<never> {
  return isInterceptorClass(spec) ? instanceMethod(spec, "intercept", instances) : (spec as Middleware<never>);
}

/** The method called on the instance of a guard or middleware class. */
type InstanceMethod = (request: never, next: NextRoutes) => ReturnType<Middleware>;

/**
 * `member` of the instance the controllers' resolver gives for class `spec` (once for singleton
 * controllers, per request for request-scoped ones), as a function named `Class.member`.
 */
function instanceMethod<F>(spec: ClassLike, member: "canActivate" | "intercept", instances: Instances): F {
  const fixed = instances.fixed(spec) as Record<string, InstanceMethod> | undefined;
  const method: InstanceMethod =
    fixed !== undefined
      ? (request, next) => fixed[member]!(request, next)
      : (request, next) =>
          (instances.forRequest(spec, request as RoutedRequest) as Record<string, InstanceMethod>)[member]!(
            request,
            next,
          );
  Object.defineProperty(method, "name", { value: `${nameOf(spec)}.${member}` });
  return method as F;
}

/** A guard's predicate: the function itself, or `canActivate` of the guard class's instance. */
function predicateOf(spec: GuardSpec, instances: Instances): GuardPredicate<never> {
  return isGuardClass(spec) ? instanceMethod(spec, "canActivate", instances) : (spec as GuardPredicate<never>);
}

type Methods = Record<string | symbol, (...args: unknown[]) => ReturnType<Handler>>;

/** The handler leaf for one route method: fills the parameters, calls the method on the instance. */
function handlerFor(cls: ClassLike, planned: PlannedRoute, fixed: object | undefined, instances: Instances): Handler {
  const { method } = planned;
  if (fixed !== undefined && typeof (fixed as Methods)[method] !== "function") {
    throw new ControllerError(
      "NOT_A_METHOD",
      nameOf(cls),
      String(method),
      `the instance the resolver gave has no method ${JSON.stringify(String(method))}`,
    );
  }
  const readers = planned.args.map((a) => (a === undefined ? undefined : argReader(a)));
  const waits = planned.args.some(waitsFor);
  const handler =
    fixed === undefined
      ? requestScoped(cls, method, readers, waits, instances)
      : isRouted(planned.args)
        ? routedOnly(fixed as Methods, method, planned.args)
        : singleton(fixed as Methods, method, readers, waits);
  Object.defineProperty(handler, "name", { value: where(cls, method) });
  return handler;
}

/**
 * The handler of a singleton controller: the instance is known, so nothing is resolved per request.
 * The method is looked up per call, so a spy or a patched method on the instance is honoured.
 */
function singleton(
  self: Methods,
  method: string | symbol,
  readers: readonly (ArgReader | undefined)[],
  waits: boolean,
): Handler {
  // a `then`, not an `async` arrow: a failing parameter's 400 goes on as the rejection it is, not thrown again
  if (waits && readers.length === 1) return oneWaiting(self, method, readers[0]!);
  if (waits) return (request) => readParamsAsync(request, readers).then((values) => self[method]!(...values));
  return (request) => self[method]!(...readParams(request, readers));
}

/**
 * A singleton's method whose one parameter waits (a `@Body()` alone): its value goes to the method in
 * the one `then`, as `readParamsAsync` would give it (its failure as it is), without an array of values
 * and a `then` of its own.
 */
function oneWaiting(self: Methods, method: string | symbol, reader: ArgReader): Handler {
  return (request) => {
    let value: unknown;
    try {
      value = reader(request);
    } catch (error) {
      return Promise.reject(error);
    }
    return Promise.resolve(value).then((v) => self[method]!(v));
  };
}

/** Parameters that only take the request and its path variables, which cannot fail. */
function isRouted(args: readonly (ArgSource | undefined)[]): args is readonly (RoutedArg | undefined)[] {
  return args.every((a) => a === undefined || a.kind === "pathVar" || a.kind === "request");
}

type RoutedArg = Extract<ArgSource, { readonly kind: "pathVar" | "request" }>;

/**
 * The handler of a singleton controller whose parameters are path variables and the request: read in
 * place, with nothing to collect or await — the common case, kept as cheap as a hand-written handler.
 */
function routedOnly(self: Methods, method: string | symbol, args: readonly (RoutedArg | undefined)[]): Handler {
  const count = args.length;
  if (count === 0) return () => self[method]!();
  return (request) => {
    const values = new Array<unknown>(count);
    for (let i = 0; i < count; i++) {
      const source = args[i];
      values[i] = source === undefined ? undefined : source.kind === "request" ? request : request.vars[source.label];
    }
    return self[method]!(...values);
  };
}

/** The handler of a request-scoped controller: the resolver gives the instance for each request. */
function requestScoped(
  cls: ClassLike,
  method: string | symbol,
  readers: readonly (ArgReader | undefined)[],
  waits: boolean,
  instances: Instances,
): Handler {
  const self = (request: RoutedRequest) => instances.forRequest(cls, request) as Methods;
  if (waits) return async (request) => self(request)[method]!(...(await readParamsAsync(request, readers)));
  return (request) => self(request)[method]!(...readParams(request, readers));
}
