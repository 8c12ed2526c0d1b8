import type { PathParser } from "../parsers/parser.js";
import type { HandlerInfo, HandlerNode, RouteNode } from "../tree.js";
import { routeChainsOf, type RouteChain, type SegmentTest } from "../chains.js";

/*
 * The route listing: the tree's routes in first-match order, as a user reads them (method, path
 * template, variables, guards, handler name), and a plain-text table of them.
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
  /** The names of the guards on its way (a predicate's function name, or `guard`). */
  readonly guards: readonly string[];
  /** The handler's name: its `info.name`, else the function's name, else `(anonymous)`. */
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

/**
 * The routes of `tree` as a text table, one line per route in the order they are tried:
 * ```
 * #  METHOD  PATH              HANDLER     NOTES
 * 1  GET     /users/{id:Int}   Users.byId
 * 2  *       /static/…         files       guard: isAdmin
 * ```
 * `*` is any method; `/…` after a path means the route takes any rest of the path.
 */
export function printRoutes(tree: RouteNode): string {
  const rows = routes(tree).map((r) => [
    String(r.index + 1),
    r.method ?? "*",
    displayPath(r),
    r.handler,
    r.guards.length === 0 ? "" : `guard: ${r.guards.join(", ")}`,
  ]);
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
