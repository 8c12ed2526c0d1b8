import {
  type Next,
  pathEnd,
  path,
  pathVar,
  method,
  type Route,
  type RouteNode,
  labelsIn,
  nodeOf,
  notANext,
  type Vars,
} from "../tree.js";
import { PatternError } from "./errors.js";
import { type LiteralPart, parsePattern, type ParsedPattern, type VariablePart } from "./grammar.js";
import type { CheckedPattern, PatternVars, RouteCaptures } from "./types.js";

/*
 * `route` and `match` are sugar: they build exactly the nodes of spec 4.1 rules 4–5, e.g.
 *   route("GET /a/b/v:Int", h)  ≡  method("GET", path("/a/b", pathVar("v", Int, pathEnd(h))))
 * Consecutive literal parts become one `path` node.
 */

/** What the handler (or inner routes) of a pattern may be: typed by the pattern's variables. */
export type PatternNext<P extends string, V extends Vars> = Route<PatternVars<P>> | Next<NoInfer<V> & PatternVars<P>>;

/**
 * The spec's `[route| [METHOD] /path |]`: the method (when given) and the whole path must match —
 * no segment may remain. With a literal pattern the handler's `req.vars` is typed from it:
 * `route("GET /u/id:Int", (req) => req.vars.id /* number *\/)`. Throws a `PatternError` for a
 * malformed pattern.
 */
export function route<const P extends string, V extends Vars = {}>(
  pattern: CheckedPattern<P, V>,
  next: PatternNext<P, V>,
): Route<V> & RouteCaptures<PatternVars<P>> {
  const parsed = parsePattern(pattern);
  return build(parsed, pathEnd(nodeOf(next) ?? notANext(next, `route(${JSON.stringify(pattern)})`))) as Route<V> &
    RouteCaptures<PatternVars<P>>;
}

/**
 * The spec's `[match| [METHOD] /prefix |]`: the method (when given) and a path prefix must match;
 * the rest of the path goes to `next`, usually an `alt` of inner routes, which see the prefix's
 * variables. Throws a `PatternError` for a malformed pattern, or a label that an inner route uses too.
 */
export function match<const P extends string, V extends Vars = {}>(
  pattern: CheckedPattern<P, V>,
  next: PatternNext<P, V>,
): Route<V> {
  const parsed = parsePattern(pattern);
  return build(parsed, nodeOf(next) ?? notANext(next, `match(${JSON.stringify(pattern)})`)) as Route<V>;
}

function build(parsed: ParsedPattern, inner: RouteNode): RouteNode {
  rejectLabelsUsedWithin(parsed, inner);
  let node = inner;
  let i = parsed.parts.length;
  while (i > 0) {
    const part = parsed.parts[i - 1]!;
    if (part.kind === "variable") {
      node = pathVar(part.label, part.parser, node);
      i--;
      continue;
    }
    const literals: string[] = [];
    while (i > 0 && parsed.parts[i - 1]!.kind === "literal")
      literals.unshift((parsed.parts[--i] as LiteralPart).segment);
    node = path(`/${literals.join("/")}`, node);
  }
  return parsed.method === undefined ? node : method(parsed.method, node);
}

/** A label of this pattern that an inner route (a nested `match`/`route`/`pathVar`) captures again. */
function rejectLabelsUsedWithin(parsed: ParsedPattern, inner: RouteNode): void {
  const innerLabels = labelsIn(inner);
  const clash = parsed.parts.find((p): p is VariablePart => p.kind === "variable" && innerLabels.has(p.label));
  if (clash !== undefined) {
    throw new PatternError(
      "DUPLICATE_LABEL",
      parsed.pattern,
      clash.position,
      clash.label.length,
      `the label "${clash.label}" is captured again by a route inside this one`,
      "each label at most once per route, counting the prefixes of enclosing match patterns",
    );
  }
}
