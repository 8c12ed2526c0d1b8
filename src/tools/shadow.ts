import { factOf } from "../parsers/facts.js";
import { NoParse, parseSegment, type PathParser } from "../parsers/parser.js";
import type { RouteNode } from "../tree.js";
import { listed, type ListedRoute } from "./listing.js";
import { routeChainsOf, type RouteChain, type SegmentTest } from "../chains.js";

/*
 * The shadowed-route report. A route is caught when every request its tests accept (method, segments,
 * end of path) is accepted by the tests of earlier routes. Decided from the tests alone, so it never
 * claims more than it can prove: literal against literal, literal against a parser (the parser is
 * asked), parser against parser (the inclusion facts each parser declares, followed transitively),
 * exact routes against prefixes. What it cannot prove (two parsers with no declared relation, a union
 * of literals filling a parser) is not reported.
 */

/**
 * `unreachable`: earlier routes without guards accept every request of the route, so it answers only
 * if one of their handlers returns `routeMismatch()` (handlers are opaque; the report cannot rule it
 * out and says so). `fall-through`: the earlier routes include guarded ones, so the route answers only
 * when a guard refuses or a handler returns `routeMismatch()`.
 */
export type ShadowVerdict = "unreachable" | "fall-through";

/** One caught route of {@link shadowed}. */
export interface ShadowedRoute {
  readonly route: ListedRoute;
  readonly verdict: ShadowVerdict;
  /** The earlier routes that together accept every request of `route` (usually one). */
  readonly by: readonly ListedRoute[];
  /** One sentence saying why, and what could still let a request through. */
  readonly reason: string;
}

/** Every route of `tree` that earlier routes catch, in route order. Routes are never reordered. */
export function shadowed(tree: RouteNode): ShadowedRoute[] {
  const chains = routeChainsOf(tree);
  const inclusion = new Inclusion();
  const report: ShadowedRoute[] = [];
  chains.forEach((chain, index) => {
    if (index === 0) return;
    const region: Region = chain;
    const earlier = chains.slice(0, index);
    // a guard may refuse and a middleware may pass the request on: routes behind either are not sure to answer
    const unguarded = earlier.filter((e) => e.guards.length === 0 && e.middlewares.length === 0);
    let verdict: ShadowVerdict = "unreachable";
    let cover = coverOf(region, unguarded, inclusion);
    if (cover === null && unguarded.length < earlier.length) {
      verdict = "fall-through";
      cover = coverOf(region, earlier, inclusion);
    }
    if (cover === null) return;
    const by = [...new Set(cover)]
      .sort((a, b) => chains.indexOf(a) - chains.indexOf(b))
      .map((e) => listed(e, chains.indexOf(e)));
    report.push({ route: listed(chain, index), verdict, by, reason: reasonFor(verdict, by) });
  });
  return report;
}

function reasonFor(verdict: ShadowVerdict, by: readonly ListedRoute[]): string {
  const names = by.map(describe).join(" and ");
  const handlers = by.map((r) => r.handler).join(" or ");
  if (verdict === "unreachable") {
    return `every request it accepts is accepted first by ${names}; it answers only if ${handlers} returns routeMismatch()`;
  }
  const middlewares = by.some((r) => r.middlewares.length > 0);
  const gates = [...new Set(by.flatMap((r) => [...r.guards, ...r.middlewares]))].join(", ");
  const what = middlewares ? "a guard or middleware" : "a guard";
  return `every request it accepts is accepted first by ${names}; it answers only when ${what} (${gates}) refuses or ${handlers} returns routeMismatch()`;
}

/** `#3 GET /users/{id} (Users.byId)`: a route in messages, numbered from 1 as `printRoutes` does. */
function describe(r: ListedRoute): string {
  return `#${r.index + 1} ${r.method ?? "*"} ${r.path}${r.exact ? "" : "/…"} (${r.handler})`;
}

/** The shadow report as text, one block per caught route; an empty string when nothing is caught. */
export function printShadowed(tree: RouteNode): string {
  return shadowed(tree)
    .map((s) => `${describe(s.route)}: ${s.verdict}\n  ${s.reason}\n`)
    .join("");
}

/** A set of requests: a method (or any), segment tests, and whether the path must end after them. */
interface Region {
  readonly method: string | null;
  readonly tests: readonly SegmentTest[];
  readonly exact: boolean;
}

/**
 * Earlier routes that together accept every request of `region`, or `null`. One route that covers it
 * will do; failing that, a prefix region (`exact: false`) is split by length — the path ends here, or
 * one more segment follows — as long as some route is long enough to tell the two apart.
 */
function coverOf(region: Region, earlier: readonly RouteChain[], inclusion: Inclusion): RouteChain[] | null {
  const single = earlier.find((e) => covers(e, region, inclusion));
  if (single !== undefined) return [single];
  if (
    region.exact ||
    !earlier.some((e) => e.tests.length > region.tests.length || (e.exact && e.tests.length === region.tests.length))
  ) {
    return null;
  }
  const ending = coverOf({ ...region, exact: true }, earlier, inclusion);
  if (ending === null) return null;
  const longer = coverOf({ ...region, tests: [...region.tests, ANY_SEGMENT] }, earlier, inclusion);
  return longer === null ? null : [...ending, ...longer];
}

/** A segment the region does not constrain (what a prefix's rest may hold). */
const ANY_SEGMENT: SegmentTest = {
  label: "",
  parser: {
    name: "any segment",
    acceptsEverySegment: true,
    parseUrlPiece: (piece: string) => piece,
    toUrlPiece: (value: unknown) => String(value),
  },
};

/** True when route `e` accepts every request of `region`. */
function covers(e: RouteChain, region: Region, inclusion: Inclusion): boolean {
  if (e.method !== null && e.method !== region.method) return false;
  const n = e.tests.length;
  if (e.exact ? !region.exact || region.tests.length !== n : region.tests.length < n) return false;
  for (let i = 0; i < n; i++) if (!testCovers(e.tests[i]!, region.tests[i]!, inclusion)) return false;
  return true;
}

/** True when every segment that passes `inner` passes `outer`. */
function testCovers(outer: SegmentTest, inner: SegmentTest, inclusion: Inclusion): boolean {
  if (typeof outer === "string") return inner === outer;
  if (typeof inner === "string") return parseSegment(outer.parser, inner) !== NoParse;
  return inclusion.includes(outer.parser, inner.parser);
}

/** The parsers' declared inclusion facts, closed transitively (per report, so user parsers may change). */
class Inclusion {
  private readonly above = new Map<PathParser<unknown>, Set<PathParser<unknown>>>();

  /** True when `outer` accepts every segment `inner` accepts. */
  includes(outer: PathParser<unknown>, inner: PathParser<unknown>): boolean {
    return outer === inner || factOf(outer, "acceptsEverySegment") === true || this.including(inner).has(outer);
  }

  /** Every parser known to include `parser`. */
  private including(parser: PathParser<unknown>): Set<PathParser<unknown>> {
    let found = this.above.get(parser);
    if (found !== undefined) return found;
    found = new Set();
    const queue = [...(factOf(parser, "includedIn") ?? [])];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (found.has(next)) continue;
      found.add(next);
      queue.push(...(factOf(next, "includedIn") ?? []));
    }
    this.above.set(parser, found);
    return found;
  }
}

/** What to do at startup about unreachable routes: nothing (the default), warn, or refuse to start. */
export type UnreachablePolicy = "ignore" | "warn" | "throw";

/**
 * Applies `policy` to the unreachable routes of `tree` (fall-through-only routes are fine): `warn`
 * writes the report with `console.warn`, `throw` throws an `Error` carrying it. Routes are never
 * reordered.
 */
export function checkUnreachable(
  tree: RouteNode,
  policy: UnreachablePolicy = "ignore",
  where = "switchyard-router",
): void {
  if (policy === "ignore") return;
  if (policy !== "warn" && policy !== "throw")
    throw new TypeError(`${where}: unreachable must be "ignore", "warn" or "throw", got ${JSON.stringify(policy)}`);
  const unreachable = shadowed(tree).filter((s) => s.verdict === "unreachable");
  if (unreachable.length === 0) return;
  const message =
    `${where}: ${unreachable.length} unreachable route${unreachable.length === 1 ? "" : "s"}:\n` +
    unreachable.map((s) => `  ${describe(s.route)}: ${s.reason}`).join("\n");
  if (policy === "throw") throw new Error(message);
  console.warn(message);
}
