import { recordMatch, type ClassLike } from "./metadata.js";
import { rejectStandardCall } from "./targets.js";

/**
 * Class decorator: the class's routes live under this pattern, the decorator form of
 * `match(pattern, alt(…routes))`. The pattern is `[METHOD] /prefix`, the grammar of `match`; its
 * `label:Type` parts are captured for every route of the class, and a method may take them with
 * `@PathVar`. A class without `@Match` is a controller at the root.
 *
 * The pattern is checked when the class is given to `controllers()` (path types may be registered
 * after the class is defined); a malformed one throws a `PatternError` naming the class.
 *
 * ```ts
 * @Match("/users")
 * class Users {
 *   @Route("GET /id:Int") get(@PathVar("id") id: number) { … }
 * }
 * ```
 */
export function Match(pattern: string): <C extends ClassLike>(target: C) => void {
  if (typeof pattern !== "string") throw new TypeError(`@Match: the pattern must be a string, got ${typeof pattern}`);
  return (target: ClassLike, ...standard: unknown[]) => {
    rejectStandardCall("@Match", standard[0]);
    recordMatch(target, pattern);
  };
}
