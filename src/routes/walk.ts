import type { PathParser } from "../parsers/parser.js";
import { nodesOf, type GuardNode, type HandlerNode, type RouteNode } from "../tree.js";

/*
 * The one "tree → ordered routes" walk: the compiler and every tool that reads the tree (listing,
 * shadow report, urlFor, OpenAPI, 405/Allow) start from it.
 *
 * A route tree, read as the ordered list of its routes: every way from the root to a leaf, in the
 * order the interpreter's depth-first walk reaches the leaves. Between the root and a leaf there is
 * nothing but pure tests (method, literal, typed segment, end of path), which commute, so a route
 * is fully described by its method, the test on each segment it consumes, and whether it needs the
 * path to end there.
 */

/** A typed path segment: the parser must accept it; the value is captured under `label`. */
export interface VarTest {
  readonly label: string;
  readonly parser: PathParser<unknown>;
}

/** The test on one consumed segment: a literal (compared with the decoded segment) or a variable. */
export type SegmentTest = string | VarTest;

/** Where a route ends: a handler, or a guard whose `next` is routed on its own once it passes. */
export type Leaf = HandlerNode | GuardNode;

/** One route: the pure tests from the root to a leaf. */
export interface Chain {
  /** The method every `method` node on the way names; `null` when there is none. */
  readonly method: string | null;
  /** One test per consumed segment, in path order. */
  readonly tests: readonly SegmentTest[];
  /** A `pathEnd` on the way: no segment may remain after the tests. */
  readonly exact: boolean;
  readonly leaf: Leaf;
}

/** A route with what the tools need besides its tests: the nodes on its way. */
export interface RouteChain extends Chain {
  /** Every node from the root to the leaf, in order (the leaf last). */
  readonly nodes: readonly RouteNode[];
  /** The guards on the way (with `throughGuards`, the ones the route passes through). */
  readonly guards: readonly GuardNode[];
}

/** The nodes passed so far, innermost first (shared tails: no copying per step). */
interface Trail {
  readonly node: RouteNode;
  readonly up: Trail | null;
}

interface Prefix {
  readonly method: string | null;
  readonly tests: readonly SegmentTest[];
  readonly exact: boolean;
  readonly trail: Trail | null;
}

const ROOT: Prefix = { method: null, tests: [], exact: false, trail: null };

/**
 * The routes of `tree` in first-match order. With `throughGuards`, guards are transparent and every
 * route ends at a handler (what `find` reports); without, a guard ends a route, since the
 * interpreter runs it whenever the tests before it pass, whatever lies below it. Routes that can
 * never match (two different methods, a segment after `pathEnd`) are left out: the interpreter
 * never reaches their leaves.
 */
export function chainsOf(tree: RouteNode, throughGuards: boolean): Chain[] {
  return walk(tree, throughGuards);
}

/**
 * The routes of `tree` in first-match order, guards transparent (as {@link chainsOf} with
 * `throughGuards`), each with the nodes and guards on its way: what the route listing, the shadow
 * report, `urlFor`, OpenAPI and 405/Allow read.
 */
export function routeChainsOf(tree: RouteNode): RouteChain[] {
  return walk(tree, true);
}

function walk(tree: RouteNode, throughGuards: boolean): RouteChain[] {
  const chains: RouteChain[] = [];
  const end = (leaf: Leaf, at: Prefix): void => {
    const nodes: RouteNode[] = [leaf];
    for (let t = at.trail; t !== null; t = t.up) nodes.push(t.node);
    nodes.reverse();
    const guards = nodes.filter((n): n is GuardNode => n.kind === "guard" && n !== leaf);
    chains.push({ method: at.method, tests: at.tests, exact: at.exact, leaf, nodes, guards });
  };
  const visit = (node: RouteNode, outer: Prefix): void => {
    const at: Prefix = { ...outer, trail: { node, up: outer.trail } };
    switch (node.kind) {
      case "method":
        if (at.method === null || at.method === node.method) visit(node.next, { ...at, method: node.method });
        return;
      case "path":
        if (!at.exact || node.segments.length === 0) visit(node.next, { ...at, tests: [...at.tests, ...node.segments] });
        return;
      case "pathVar":
        if (!at.exact) visit(node.next, { ...at, tests: [...at.tests, { label: node.label, parser: node.parser }] });
        return;
      case "pathEnd":
        visit(node.next, { ...at, exact: true });
        return;
      case "alt":
        for (const alternative of node.alternatives) visit(alternative, at);
        return;
      case "guard":
        if (throughGuards) visit(node.next, at);
        else end(node, outer);
        return;
      case "handler":
        end(node, outer);
        return;
    }
  };
  visit(tree, ROOT);
  return chains;
}

/** True when the tree has a guard anywhere. */
export function hasGuard(tree: RouteNode): boolean {
  for (const node of nodesOf(tree)) if (node.kind === "guard") return true;
  return false;
}
