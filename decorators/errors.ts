/** Every way a controller can be misdeclared; the `code` of a {@link ControllerError}. */
export type ControllerErrorCode =
  /** `controllers()` got something that is not a class. */
  | "NOT_A_CLASS"
  /** The same class appears twice in one `controllers()` list. */
  | "DUPLICATE_CONTROLLER"
  /** A class given to `controllers()` has no `@Route` method. */
  | "NO_ROUTES"
  /** Two `@Match` decorators on one class. */
  | "DUPLICATE_MATCH"
  /** Two `@Route` decorators on one method. */
  | "DUPLICATE_ROUTE"
  /** `@Route`, `@Guard` or a parameter decorator on a static method: routes are instance methods. */
  | "STATIC_METHOD"
  /** A parameter decorator or a method `@Guard` on a method that has no `@Route` (or on a constructor parameter). */
  | "NOT_A_ROUTE"
  /** A route on a method named `constructor`, or a class whose `prototype.constructor` is not the class. */
  | "RESERVED_METHOD"
  /** A decorated parameter at a position the method does not have. */
  | "PARAM_INDEX"
  /**
   * A `@Query`/`@Header`/`@Cookie`/`@Body` parameter whose type cannot be known or is neither a parser, a
   * class-validator DTO class (a class with constraints) nor a Standard Schema: `Function` (a class
   * imported with `import type`), `Object` (an interface, a union), `undefined`, `Array`, a primitive.
   */
  | "PARAM_TYPE"
  /** A `@Guard` that is neither a predicate function nor a class with `canActivate`. */
  | "NOT_A_GUARD"
  /** A `@Use` that is neither a middleware function nor a class with `intercept`. */
  | "NOT_A_MIDDLEWARE"
  /** The code was compiled with TC39 standard decorators; these decorators need TypeScript's legacy ones. */
  | "STANDARD_DECORATORS"
  /** Two parameter decorators on one parameter. */
  | "DUPLICATE_PARAM"
  /** A `@Body` and a form parameter (`@FormField`, `@File`, `@Files`) on one method: a request has one body. */
  | "TWO_BODIES"
  /** A `@PathVar` label that neither the route's pattern nor the class's `@Match` prefix captures. */
  | "UNKNOWN_LABEL"
  /** A label of the route's pattern that no `@PathVar` parameter receives. */
  | "MISSING_PATH_VAR"
  /** A `@PathVar` parameter whose declared TypeScript type contradicts the pattern's type. */
  | "PARAM_TYPE_MISMATCH"
  /** `@Route` on something that is not a method (an accessor), or an instance lacking the method. */
  | "NOT_A_METHOD"
  /** The resolver (or `new`) failed, or gave no object. */
  | "RESOLVE_FAILED";

/**
 * A misdeclared controller, thrown by `controllers()` (or by a decorator, for misuse it can see on
 * the spot), so that a bad controller never reaches a running server. The message starts with
 * `Class.method:` (or `Class:`).
 */
export class ControllerError extends Error {
  override readonly name = "ControllerError";

  constructor(
    /** Which rule is broken; stable across versions. */
    readonly code: ControllerErrorCode,
    /** The class's name. */
    readonly controller: string,
    /** The method's name, when the problem is with one method. */
    readonly method: string | undefined,
    /** What is wrong. */
    problem: string,
    options?: { readonly cause?: unknown },
  ) {
    super(`${method === undefined ? controller : `${controller}.${method}`}: ${problem}`, options);
  }
}
