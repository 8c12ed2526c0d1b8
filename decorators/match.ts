import type { CheckedPattern } from "../src/pattern/types.js";
import { recordMatch, type ClassLike } from "./metadata.js";
import { adoptOwn, isStandardContext, markStandard } from "./standard.js";

/**
 * Class decorator: the class's routes live under this pattern, the decorator form of
 * `match(pattern, alt(…routes))`. The pattern is `[METHOD] /prefix`, the grammar of `match`; its
 * `label:Type` parts are captured for every route of the class, and a method may take them with
 * `@PathVar`. A class without `@Match` is a controller at the root.
 *
 * A literal pattern is checked by the compiler, as `match`'s is; any pattern is checked when the class
 * is given to `controllers()` (path types may be registered after the class is defined), and a
 * malformed one throws a `PatternError` naming the class. The compiler cannot tell the class's methods
 * the prefix's variables (a class decorator changes no type): for `@Handle` methods checked against
 * them, extend `Controller(prefix)` instead.
 *
 * ```ts
 * @Match("/users")
 * class Users {
 *   @Route("GET /id:Int") get(@PathVar("id") id: number) { … }
 * }
 * ```
 */
export function Match<const P extends string>(pattern: CheckedPattern<P>): MatchDecorator {
  if (typeof pattern !== "string") throw new TypeError(`@Match: the pattern must be a string, got ${typeof pattern}`);
  return (target: ClassLike, context?: unknown) => {
    if (isStandardContext(context)) {
      // a class decorator runs after its members': their steps go first, as under legacy decorators
      markStandard(target);
      adoptOwn(target, context.metadata);
    }
    recordMatch(target, pattern);
  };
}

/** What `@Match` returns: a class decorator for both call shapes. */
export type MatchDecorator = <C extends ClassLike>(target: C, context?: ClassDecoratorContext) => void;
