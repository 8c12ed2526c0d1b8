import type { Middleware } from "../src/tree.js";
import { isClassWith } from "./class-specs.js";
import { type MiddlewareSpec, recordMiddleware } from "./metadata.js";
import { classOrMethodDecorator } from "./class-or-method.js";

/**
 * A middleware class: built by the controllers' resolver (so it can take services from a DI container),
 * asked `intercept(request, next)` per request — NestJS's interceptors, as switchyard middlewares.
 */
export interface Interceptor {
  intercept(request: never, next: Parameters<Middleware>[1]): ReturnType<Middleware>;
}

/** What `@Use` returns: a decorator for a class or a method, under legacy or TC39 standard decorators. */
export interface UseDecorator {
  /** TC39 standard decorators, on a class or a method. */
  (value: Function, context: ClassDecoratorContext | ClassMethodDecoratorContext): void;
  /** TypeScript's legacy decorators (`experimentalDecorators`), on a class or a method. */
  (target: object, method?: string | symbol, descriptor?: PropertyDescriptor): void;
}

/**
 * Class or method decorator: the decorator form of `use(middleware, next)`. On a method, its route
 * becomes `route(pattern, use(m₁, use(m₂, … guards … handler)))`; on a class, the class's routes sit
 * inside it: `match(prefix, use(m₁, … alt(routes)))`, so a class middleware runs once for each request
 * the class's prefix matches, and sees `null` from `next()` when no method of the class answers.
 * Middlewares sit outside guards: they see every request their routes' tests accept, a refused guard
 * as `null` from `next()`, and a guard's thrown `HttpError` as a rejection they can map. Order,
 * outermost first: a base class's, the class's, then the method's, each list as written;
 * `@Use(a, b)` is `@Use(a) @Use(b)`.
 *
 * A middleware is a function `(request, next) => result`, or a class with `intercept(request, next)`,
 * obtained through the same resolver as the controllers: once for singleton controllers, per request
 * for request-scoped ones.
 */
export function Use(...middlewares: readonly MiddlewareSpec[]): UseDecorator {
  return classOrMethodDecorator(
    { decorator: "@Use", one: "middleware or middleware class", kind: "a middleware function or class" },
    middlewares,
    (owner, item, method) => recordMiddleware(owner, { method, middleware: item }),
  ) as UseDecorator;
}

/** True for a middleware class (instances have `intercept`), false for a middleware function. */
export function isInterceptorClass(
  middleware: MiddlewareSpec,
): middleware is Extract<MiddlewareSpec, abstract new (...args: never[]) => Interceptor> {
  return isClassWith(middleware, "intercept");
}
