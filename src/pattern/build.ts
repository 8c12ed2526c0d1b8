import {
  methodNode,
  pathEnd,
  pathNode,
  pathVarNode,
  type Route,
  type MethodNode,
  type NeedsVars,
  type RouteNode,
  labelsIn,
  nodeOf,
  notANext,
  type Vars,
} from "../tree.js";
import { PatternError } from "./errors.js";
import { type LiteralPart, parsePattern, type ParsedPattern, type VariablePart } from "./grammar.js";
import type { RoutedRequest } from "../request.js";
import type { HandlerResult } from "../reply.js";
import type { Mounted, NotAHandler, ServedRoute, Serves } from "../served.js";
import type { CheckedPattern, PatternMethod, PatternPath, PatternVars, RouteCaptures } from "./types.js";

/*
 * `route` and `match` are sugar: they build exactly the nodes of spec 4.1 rules 4–5, e.g.
 *   route("GET /a/b/v:Int", h)  ≡  method("GET", path("/a/b", pathVar("v", Int, pathEnd(h))))
 * Consecutive literal parts become one `path` node.
 */

/**
 * What the handler (or inner routes) of a pattern may be: typed by the pattern's variables. `S` is what
 * a tree given serves, `R` what a handler given returns (both inferred, for the typed client).
 */
export type PatternNext<
  P extends string,
  V extends Vars,
  S = never,
  R extends HandlerResult | Promise<HandlerResult> = HandlerResult | Promise<HandlerResult>,
> =
  | (Route<PatternVars<P>> & Serves<S>)
  | (Route<NoInfer<V> & PatternVars<P>> & Serves<S>)
  | ((request: RoutedRequest<NoInfer<V> & PatternVars<P>>) => R);

/** A handler's result type as the builders infer it. */
type Result = HandlerResult | Promise<HandlerResult>;

/**
 * The spec's `[route| [METHOD] /path |]`: the method (when given) and the whole path must match —
 * no segment may remain. With a literal pattern the handler's `req.vars` is typed from it:
 * `route("GET /u/id:Int", (req) => req.vars.id /* number *\/)`. Throws a `PatternError` for a
 * malformed pattern.
 */
export function route<const P extends string, V extends Vars = {}, S = never, R extends Result = NotAHandler>(
  pattern: CheckedPattern<P, V>,
  next: PatternNext<P, V, S, R>,
): PatternNode<P> & NeedsVars<V> & RouteCaptures<PatternVars<P>> & Serves<PatternServes<P, S, R, true>> {
  const parsed = parsePattern(pattern);
  return build(parsed, pathEnd(nodeOf(next) ?? notANext(next, `route(${JSON.stringify(pattern)})`))) as PatternNode<P> &
    NeedsVars<V> &
    RouteCaptures<PatternVars<P>> &
    Serves<PatternServes<P, S, R, true>>;
}

/**
 * The spec's `[match| [METHOD] /prefix |]`: the method (when given) and a path prefix must match;
 * the rest of the path goes to `next`, usually an `alt` of inner routes, which see the prefix's
 * variables. Throws a `PatternError` for a malformed pattern, or a label that an inner route uses too.
 */
export function match<const P extends string, V extends Vars = {}, S = never, R extends Result = NotAHandler>(
  pattern: CheckedPattern<P, V>,
  next: PatternNext<P, V, S, R>,
): PatternNode<P> & NeedsVars<V> & Serves<PatternServes<P, S, R, false>> {
  const parsed = parsePattern(pattern);
  return build(parsed, nodeOf(next) ?? notANext(next, `match(${JSON.stringify(pattern)})`)) as PatternNode<P> &
    NeedsVars<V> &
    Serves<PatternServes<P, S, R, false>>;
}

/**
 * What a `route` (`Exact`) or `match` with pattern `P` and next `N` serves, for the typed client: a
 * handler's route directly (a `match` handler takes any rest: `/static/*`), a subtree's routes under
 * the pattern. A pattern that is no literal serves nothing the types can name.
 */
type PatternServes<P extends string, S, R, Exact extends boolean> = string extends P
  ? never
  : [R] extends [NotAHandler]
    ? Mounted<PatternMethod<P>, PatternPath<P>, PatternVars<P>, S, Exact>
    : ServedRoute<PatternMethod<P>, Exact extends true ? PatternPath<P> : RestOf<PatternPath<P>>, PatternVars<P>, R>;

/**
 * The node a pattern's route starts with: a `method` node when it names a method (so a route's type is
 * one object type, not one per kind of node: an `alt` of them is cheap to read for the typed client).
 */
type PatternNode<P extends string> = PatternMethod<P> extends "*" ? RouteNode : MethodNode;

/** The template of a route that takes any rest of the path after `P`. */
type RestOf<P extends string> = P extends "/" ? "/*" : `${P}/*`;

function build(parsed: ParsedPattern, inner: RouteNode): RouteNode {
  rejectLabelsUsedWithin(parsed, inner);
  let node = inner;
  let i = parsed.parts.length;
  while (i > 0) {
    const part = parsed.parts[i - 1]!;
    // the grammar checked the method, the pieces and each label (`rejectLabelsUsedWithin` the labels
    // inside), so the nodes are built without the public builders' checks
    if (part.kind === "variable") {
      node = pathVarNode(part.label, part.parser, node);
      i--;
      continue;
    }
    const literals: string[] = [];
    while (i > 0 && parsed.parts[i - 1]!.kind === "literal")
      literals.unshift((parsed.parts[--i] as LiteralPart).segment);
    node = pathNode(`/${literals.join("/")}`, literals, node);
  }
  return parsed.method === undefined ? node : methodNode(parsed.method, node);
}

/** A label of this pattern that an inner route (a nested `match`/`route`/`pathVar`) captures again. */
function rejectLabelsUsedWithin(parsed: ParsedPattern, inner: RouteNode): void {
  const innerLabels = labelsIn(inner);
  const clash = parsed.parts.find((p): p is VariablePart => p.kind === "variable" && innerLabels.includes(p.label));
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
