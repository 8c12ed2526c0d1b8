import type { FieldError } from "../validate/field-errors.js";
import type { StandardIssue } from "./standard.js";

/*
 * A schema's issues as the 400's failing fields: the issue's path joined with dots under the field the
 * value was read as (`address.city`, `lines.1.qty`, `tag.1`), its message as it is, and as constraint
 * the library's own code for it when the issue carries one (zod's and arktype's `code`, valibot's
 * `type`) — the Standard Schema interface itself gives only a message and a path.
 *
 * Lists are read index by index, never with `map`: a library's list may be an `Array` subclass whose
 * constructor takes its items (arktype's issues and paths are), and `map` builds its result with that
 * constructor (`new Path(0)` is a path holding `0`, not an empty one).
 */

/** The failing fields of `issues`, each under `field` (`""` for the body as a whole). */
export function fieldErrorsOfIssues(
  where: FieldError["in"],
  field: string,
  issues: readonly StandardIssue[],
): FieldError[] {
  const errors: FieldError[] = [];
  for (let i = 0; i < issues.length; i++) {
    const issue = issues[i]!;
    const keys = pathOf(issue);
    errors.push({
      in: where,
      field: keys.length === 0 ? field : field === "" ? keys.join(".") : `${field}.${keys.join(".")}`,
      constraint: constraintOf(issue),
      message: typeof issue.message === "string" ? issue.message : "invalid",
    });
  }
  return errors;
}

/** The issue's path as keys: `["lines", "1", "qty"]` (a path segment `{ key }` gives its key). */
export function pathOf(issue: StandardIssue): string[] {
  const path: unknown = issue.path;
  const keys: string[] = [];
  if (!Array.isArray(path)) return keys;
  for (let i = 0; i < path.length; i++) {
    const segment: unknown = path[i];
    const key = typeof segment === "object" && segment !== null ? (segment as { readonly key?: unknown }).key : segment;
    keys.push(typeof key === "symbol" ? (key.description ?? "") : String(key));
  }
  return keys;
}

/** The library's code for the issue (`code`, else `type`), else `"invalid"`. */
export function constraintOf(issue: StandardIssue): string {
  const { code, type } = issue as { readonly code?: unknown; readonly type?: unknown };
  if (typeof code === "string" && code !== "") return code;
  if (typeof type === "string" && type !== "") return type;
  return "invalid";
}
