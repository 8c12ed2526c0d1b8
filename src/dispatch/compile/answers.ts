import type { Handler } from "../../tree.js";
import type { VarsRecord } from "../../vars.js";

/*
 * Every value a step of the compiled lookup answers with, in one place. Routes are numbered in
 * first-match order (route 0 is the first the interpreter would try), so "the first route that
 * matches" is the smallest number, and a plain integer is a route.
 *
 * The examples below all use this tree (see README.md beside this file):
 *
 *   route 0  GET /users/{id:Int}      pathEnd
 *   route 1  GET /users/{name:Text}   pathEnd
 *   route 2  GET /files               (no pathEnd: a prefix, it leaves a rest)
 */

/**
 * No route. Larger than any route number, so `Math.min(found, NONE)` keeps the route found, and it
 * ends the ascending route lists a state keeps (so a scan for "the first route after k" needs no
 * length test).
 *
 * Example: `GET /nothing` answers NONE (`find` reports `null`, dispatch a 404). The state reached by
 * `/users/42` keeps the routes that match when the path ends there as `[0, 1, NONE]` (both accept
 * `42`, route 0 first), the one reached by `/users/bob` keeps `[1, NONE]`.
 */
export const NONE = 0x7fffffff;

/**
 * A walk of the request target as it is (generated code, `Automaton.firstInTargetByTable`) cannot
 * tell the answer: a `%` or `?` where it matters means the path must be cut at its query and decoded
 * first, and the lookup is done again on that; so does a target not starting with `/` (`*`, an
 * absolute URL). Negative, so it is no route and no `NONE`.
 *
 * Example: `GET /users/b%20b` — the generated walk reads the captured segment `b%20b`, finds the `%`
 * and answers UNDECIDED; `find` then decodes the path to the segments `users`, `b b` and the walk of
 * decoded segments answers route 1 with `name: "b b"`.
 */
export const UNDECIDED = -2;

/**
 * The rest of a route that consumed the whole path: one shared, frozen empty list (no list made per
 * lookup).
 *
 * Example: `GET /users/42` answers route 0 with rest NO_REST; `GET /files/a/b` answers route 2 with
 * the rest `["a", "b"]`, and `GET /files` route 2 with NO_REST.
 */
export const NO_REST: readonly string[] = Object.freeze([]);

/**
 * A route chosen by generated code, made there into what `find` reports: its handler (null when the
 * route ends at a guard), its vars, its rest. One object of `Found`'s shape, so `find` returns it as
 * it is. Its route number is not in it: the code writes that to {@link ChosenRecord.chosen}.
 *
 * Example: `GET /users/42`, where the table has generated code, answers
 * `{ handler: <route 0's handler>, vars: { id: 42 }, rest: NO_REST }` with `chosen` set to 0.
 */
export interface MadeByCode {
  readonly handler: Handler<never> | null;
  readonly vars: VarsRecord;
  readonly rest: readonly string[];
}

/**
 * What a walk from the start chose: a route number (NONE for none; the route's vars are then bound
 * from the walk's records), or the route {@link MadeByCode} (its number in {@link ChosenRecord.chosen}).
 *
 * Example: `GET /users/42` is `0` from the table walk (vars bound afterwards from the segment bounds
 * it recorded), or a {@link MadeByCode} from generated code.
 */
export type Choice = number | MadeByCode;

/**
 * The side channel of {@link MadeByCode}: the number of the route generated code made and returned,
 * written to the walk's records (the automaton). A number, not the object itself: storing a new
 * object in a long-lived one costs a write barrier per lookup (notes/issue-12.md, round 4).
 *
 * Example: after generated code answers `GET /users/bob`, `chosen` is 1. It is read only together
 * with the {@link MadeByCode} of the same walk (see {@link routeOf}).
 */
export interface ChosenRecord {
  readonly chosen: number;
}

/** The route `choice` is, of the last walk that left its records in `records`. */
export function routeOf(choice: Choice, records: ChosenRecord): number {
  return typeof choice === "number" ? choice : records.chosen;
}
