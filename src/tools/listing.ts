import type { PathParser } from "../parsers/parser.js";
import type { GuardNode, HandlerInfo, HandlerNode, RouteNode } from "../tree.js";
import { routeChainsOf, type RouteChain, type SegmentTest } from "../chains.js";

/*
 * The route listing: the tree's routes in first-match order, as a user reads them (method, path
 * template, variables, guards, handler name), and a plain-text table of them.
 *
 * Names: a handler's `info.name` (`described`, the decorators' `Class.method`), else the function's
 * name, which JavaScript gives a function from where it is written (`const h = () => …` is `h`,
 * `{ list() {} }.list` is `list`). A function written inline as an argument
 * (`route("GET /", () => …)`, `guard((req) => …, next)`) has no name; the table shows it as
 * `<inline>`: the function is the one written in that row's route, which the row's method and path
 * already identify (repeating them in the name column would add nothing), where "(anonymous)" said
 * only what was missing.
 */

/** A path variable of a listed route. */
export interface ListedVariable {
  readonly label: string;
  /** The parser's name, as patterns write it (`Int`, `UserId`). */
  readonly type: string;
  readonly parser: PathParser<unknown>;
}

/** One route of {@link routes}. */
export interface ListedRoute {
  /** Position in first-match order, from 0. */
  readonly index: number;
  /** The method it needs, or `null` when any method will do. */
  readonly method: string | null;
  /** The path template: literals as written, variables as `{label}` (`/api/users/{id}`). */
  readonly path: string;
  /** The path's segments in order: a literal, or a variable. */
  readonly segments: readonly (string | ListedVariable)[];
  readonly variables: readonly ListedVariable[];
  /**
   * `true` when the route ends with `pathEnd` (`route`); `false` when it leaves the rest of the path
   * to its handler (a `match` prefix with a handler, or no `pathEnd` at all).
   */
  readonly exact: boolean;
  /**
   * The names of the guards on its way (a predicate's function name, or `guard` for a nameless one;
   * the table shows that as `<inline>`).
   */
  readonly guards: readonly string[];
  /** The names of the middlewares on its way, outermost first (`middleware` for a nameless one). */
  readonly middlewares: readonly string[];
  /**
   * The handler's name: its `info.name`, else the function's name, else `(anonymous)` (what OpenAPI
   * ids and the shadow report test for; the table shows `<inline>`).
   */
  readonly handler: string;
  /** What the front end said about the handler (tags, summary, …), when anything. */
  readonly info: HandlerInfo | undefined;
  /** The handler leaf itself. */
  readonly leaf: HandlerNode;
}

/** The routes of `tree`, in the order they are tried. */
export function routes(tree: RouteNode): ListedRoute[] {
  return routeChainsOf(tree).map(listed);
}

/** One walked route as listed (the walk ends every route at a handler when guards are transparent). */
export function listed(chain: RouteChain, index: number): ListedRoute {
  const leaf = chain.leaf as HandlerNode;
  const segments = chain.tests.map((t) =>
    typeof t === "string" ? t : { label: t.label, type: t.parser.name, parser: t.parser },
  );
  return {
    index,
    method: chain.method,
    path: templateOf(chain.tests, (label) => `{${label}}`),
    segments,
    variables: segments.filter((s): s is ListedVariable => typeof s !== "string"),
    exact: chain.exact,
    guards: chain.guards.map((g) => g.predicate.name || "guard"),
    middlewares: chain.middlewares.map((m) => m.middleware.name || "middleware"),
    handler: handlerName(leaf),
    info: leaf.info,
    leaf,
  };
}

/** A path from segment tests: each literal through `literal`, each variable as `variable(label)`. */
export function templateOf(
  tests: readonly SegmentTest[],
  variable: (label: string) => string,
  literal: (segment: string) => string = (segment) => segment,
): string {
  return `/${tests.map((t) => (typeof t === "string" ? literal(t) : variable(t.label))).join("/")}`;
}

/** The name tools show for a handler. */
function handlerName(leaf: HandlerNode): string {
  return leaf.info?.name ?? (leaf.handler.name || "(anonymous)");
}

/** What the table shows for a function with no name: the one written inline in that row's route. */
const INLINE = "<inline>";

/** The handler's name in the table: its `info.name`, else the function's name, else `<inline>`. */
export function handlerLabel(leaf: HandlerNode): string {
  return leaf.info?.name || leaf.handler.name || INLINE;
}

/** A guard's name in the table: the predicate's name, else `<inline>`. */
export function guardLabel(guard: GuardNode): string {
  return guard.predicate.name || INLINE;
}

/**
 * The routes of `tree` as a text table, one line per route in the order they are tried:
 * ```
 * #  METHOD  PATH              HANDLER     NOTES
 * 1  GET     /users/{id:Int}   Users.byId
 * 2  *       /static/…         files       guard: isAdmin
 * 3  GET     /health           <inline>    guard: <inline>
 * 4  GET     /orders           orders      use: requestLog; guard: isAdmin
 * ```
 * `*` is any method; `/…` after a path means the route takes any rest of the path; `<inline>` is a
 * function with no name, written in the route itself.
 */
export function printRoutes(tree: RouteNode): string {
  const rows = routeChainsOf(tree).map((chain, index) => {
    const r = listed(chain, index);
    const guards = chain.guards.map(guardLabel);
    const middlewares = chain.middlewares.map((m) => m.middleware.name || INLINE);
    const notes = [
      ...(middlewares.length === 0 ? [] : [`use: ${middlewares.join(", ")}`]),
      ...(guards.length === 0 ? [] : [`guard: ${guards.join(", ")}`]),
    ];
    return [String(index + 1), r.method ?? "*", displayPath(r), handlerLabel(r.leaf), notes.join("; ")];
  });
  return table([["#", "METHOD", "PATH", "HANDLER", "NOTES"], ...rows]);
}

/** The template with each variable's type (`/users/{id:Int}`); `/…` marks a rest. */
function displayPath(r: ListedRoute): string {
  const typed = `/${r.segments.map((s) => (typeof s === "string" ? s : `{${s.label}:${s.type}}`)).join("/")}`;
  return r.exact ? typed : `${typed === "/" ? "" : typed}/…`;
}

/** Left-aligned columns, two spaces apart, no trailing spaces. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return `${rows
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")}\n`;
}
