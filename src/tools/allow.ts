import { NoParse, parseSegment } from "../parsers/parser.js";
import { rawPathOf, splitPath } from "../segments.js";
import type { RouteNode } from "../tree.js";
import { routeChainsOf, type RouteChain } from "../chains.js";

/*
 * 405 and `Allow`, over the tree: the methods under which some route's tests accept a path. Guards
 * count as passing and handlers as answering (the tree cannot know better), exactly as `find` does.
 */

/** The methods a path is routed under, or `"any"` when some route on it takes every method. */
export type AllowedMethods = readonly string[] | "any";

const chainsByTree = new WeakMap<RouteNode, readonly RouteChain[]>();

/**
 * The methods under which a route of `tree` accepts the path of `target` (a request target, query
 * ignored, or its decoded segments), in first-match order of their routes: what an `Allow` header
 * lists. `"any"` when a route without a method accepts it; `[]` when no route does (a 404).
 */
export function allowedMethods(tree: RouteNode, target: string | readonly string[]): AllowedMethods {
  let chains = chainsByTree.get(tree);
  if (chains === undefined) chainsByTree.set(tree, (chains = routeChainsOf(tree)));
  const segments = typeof target === "string" ? splitPath(rawPathOf(target)) : target;
  const methods = new Set<string>();
  for (const chain of chains) {
    if (!acceptsPath(chain, segments)) continue;
    if (chain.method === null) return "any";
    methods.add(chain.method);
  }
  return [...methods];
}

/** True when the route's segment tests accept `segments` (its method aside). */
function acceptsPath(chain: RouteChain, segments: readonly string[]): boolean {
  const n = chain.tests.length;
  if (chain.exact ? segments.length !== n : segments.length < n) return false;
  for (let i = 0; i < n; i++) {
    const test = chain.tests[i]!;
    const ok = typeof test === "string" ? segments[i] === test : parseSegment(test.parser, segments[i]!) !== NoParse;
    if (!ok) return false;
  }
  return true;
}
