import type { CheckedPattern } from "../src/pattern/types.js";
import type { HandlerResult } from "../src/reply.js";
import { methodDecorator } from "./class-or-method.js";
import { recordRoute } from "./metadata.js";

/** What a route method may be: any method returning what a handler returns, or a promise of it. */
export type RouteMethod = (...args: never[]) => HandlerResult | Promise<HandlerResult>;

/**
 * Method decorator: the method handles this route, the decorator form of `route(pattern, handler)`.
 * The pattern is `[METHOD] /path`, with the grammar and the errors of `route`; under a class's `@Match`
 * it is relative to that prefix. Routes keep the order their methods are declared in.
 *
 * The method's parameters are filled from `@PathVar("label")` (the parsed value) and `@Req()` (the
 * routed request); any other parameter is `undefined`. It returns what a handler returns — a reply, a
 * plain value, a promise, or `routeMismatch()` to pass to the next route — and runs with `this` bound
 * to the controller instance.
 *
 * A literal pattern is checked by the compiler, as `route`'s is (`@Route("GET /id:Intt")` is a type
 * error naming the problem); any pattern is checked when the class is given to `controllers()`, and the
 * error names the class and the method. Works under legacy and TC39 standard decorators (which have no
 * parameter decorators: there, write the method in the checked style, `@Handle`).
 */
export function Route<const P extends string>(pattern: CheckedPattern<P>): RouteDecorator {
  if (typeof pattern !== "string") throw new TypeError(`@Route: the pattern must be a string, got ${typeof pattern}`);
  const decorator = methodDecorator("@Route", (owner, method) => recordRoute(owner, { method, pattern }));
  return decorator as RouteDecorator;
}

/** What `@Route` returns: a method decorator for both call shapes. */
export interface RouteDecorator {
  /** TC39 standard decorators. */
  <M extends RouteMethod>(value: M, context: ClassMethodDecoratorContext): void;
  /** TypeScript's legacy decorators (`experimentalDecorators`). */
  <M extends RouteMethod>(target: object, method: string | symbol, descriptor: TypedPropertyDescriptor<M>): void;
}
