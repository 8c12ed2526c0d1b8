import { isHttpError } from "../errors.js";
import type { RoutedRequest } from "../request.js";
import { badRequest } from "./field-errors.js";

/*
 * The JSON body as a validator gets it: read within the body limit (over it, a 413), malformed JSON a
 * 400 in the shape of the other fields' 400s, and nesting bounded before any validator recurses into it.
 */

/** How deep objects and arrays may nest by default (the body itself is level 1). */
export const DEFAULT_MAX_DEPTH = 64;

/** The body parsed as JSON; malformed or empty JSON is the core's 400, as a failing field `""`. */
export function jsonBody(request: RoutedRequest<object>, maxDepth = DEFAULT_MAX_DEPTH): Promise<unknown> {
  return jsonBodyThen(request, maxDepth, same);
}

/**
 * `jsonBody(request, maxDepth).then(next)` in one step: one promise per body fewer. A failure of
 * `next` goes on as it is (only the read's 400 is reshaped).
 */
export function jsonBodyThen<T>(
  request: RoutedRequest<object>,
  maxDepth: number,
  next: (plain: unknown) => T | PromiseLike<T>,
): Promise<T> {
  let read: Promise<unknown>;
  try {
    read = Promise.resolve(request.json());
  } catch (error) {
    read = Promise.reject(error);
  }
  // `then`, not `async`/`await`: a promise fewer per request, and a failure goes on without being thrown again
  return read.then((plain) => next(withinDepth(plain, maxDepth)), asFieldError);
}

function same<T>(value: T): T {
  return value;
}

/** `plain`, or the 400 for a body nested deeper than `maxDepth`. */
function withinDepth(plain: unknown, maxDepth: number): unknown {
  if (deeperThan(plain, maxDepth)) {
    throw badRequest(`the body is nested deeper than ${maxDepth} levels`, [
      {
        in: "body",
        field: "",
        constraint: "maxDepth",
        message: `objects and arrays nest at most ${maxDepth} deep`,
      },
    ]);
  }
  return plain;
}

/** A read's malformed-JSON 400 as a failing field `""`; any other failure as it is. */
function asFieldError(error: unknown): never {
  if (!isHttpError(error) || error.status !== 400) throw error;
  throw badRequest(error.message, [{ in: "body", field: "", constraint: "isJson", message: error.message }]);
}

/**
 * Whether JSON `value` nests objects or arrays more than `limit` deep. Walked without recursion:
 * validators recurse, and a body of nested brackets within the size limit would otherwise exhaust the
 * stack (a 500 instead of the client's 400). A body whose values are all primitives (most bodies' top
 * level) is told without a stack.
 */
function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (limit < 1) return true;
  // made at the first nested child: a flat body allocates nothing here
  let pending: object[] | undefined;
  let depths: number[] | undefined;
  let item: object = value;
  let depth = 1;
  for (;;) {
    if (depth > limit) return true;
    // each child read in place, not through `Object.values` (an array per object: on Bun ~3× the walk)
    if (Array.isArray(item)) {
      for (const child of item as unknown[])
        if (nests(child)) {
          (pending ??= []).push(child);
          (depths ??= []).push(depth + 1);
        }
    } else {
      const record = item as Record<string, unknown>;
      for (const key in record)
        if (Object.hasOwn(record, key) && nests(record[key])) {
          (pending ??= []).push(record[key]);
          (depths ??= []).push(depth + 1);
        }
    }
    if (pending === undefined || pending.length === 0) return false;
    item = pending.pop()!;
    depth = depths!.pop()!;
  }
}

/** An object or an array: a level deeper. */
function nests(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}
