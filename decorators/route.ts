import type { HandlerResult } from "../src/reply.js";
import { ControllerError } from "./errors.js";
import { nameOf, recordRoute } from "./metadata.js";
import { ownerOf, rejectStandardCall } from "./targets.js";

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
 * The pattern is checked when the class is given to `controllers()`, and the error names the class and
 * the method.
 */
export function Route(
  pattern: string,
): <M extends RouteMethod>(target: object, method: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void {
  if (typeof pattern !== "string") throw new TypeError(`@Route: the pattern must be a string, got ${typeof pattern}`);
  return (target, method, descriptor) => {
    rejectStandardCall("@Route", method);
    const owner = ownerOf("@Route", target, method);
    if (typeof descriptor?.value !== "function") {
      throw new ControllerError(
        "NOT_A_METHOD",
        nameOf(owner),
        String(method),
        `@Route is on an accessor or property; it belongs on a method`,
      );
    }
    recordRoute(owner, { method, pattern });
  };
}
