import type { PathParser } from "./parsers/parser.js";
import { someNode, type GuardNode, type HandlerNode, type RouteNode, type UseNode } from "./tree.js";

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

/**
 * A gate: a node that runs user code when the walk reaches it, before (and whether) the routes inside
 * are tried — a guard or a middleware.
 */
export type Gate = GuardNode | UseNode;

/** Where a route ends: a handler, or a gate whose `next` is routed on its own once the gate lets it. */
export type Leaf = HandlerNode | Gate;

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
  /** The guards on the way (with `throughGates`, the ones the route passes through). */
  readonly guards: readonly GuardNode[];
  /** The middlewares on the way, outermost first. */
  readonly middlewares: readonly UseNode[];
}

/**
 * The routes of `tree` in first-match order. With `throughGates`, gates (guards and middlewares) are
 * transparent and every route ends at a handler (what `find` reports); without, a gate ends a route,
 * since the interpreter runs it whenever the tests before it pass, whatever lies below it. Routes that can
 * never match (two different methods, a segment after `pathEnd`) are left out: the interpreter
 * never reaches their leaves.
 */
export function chainsOf(tree: RouteNode, throughGates: boolean): Chain[] {
  const collector = new ChainCollector(throughGates, false);
  const chains = collector.run(tree);
  if (collector.sawEveryNode && !collector.sawGate) GATELESS.add(tree);
  return chains;
}

/**
 * Trees a walk saw whole without meeting a gate, so that {@link hasGate} need not search them
 * again (`compile` asks right after walking). Trees are immutable, so the answer stays true.
 */
const GATELESS = new WeakSet<RouteNode>();

/**
 * The routes of `tree` in first-match order, gates transparent (as {@link chainsOf} with
 * `throughGates`), each with the nodes, guards and middlewares on its way: what the route listing, the shadow
 * report, `urlFor`, OpenAPI and 405/Allow read.
 */
export function routeChainsOf(tree: RouteNode): RouteChain[] {
  // with the nodes kept, every chain is a RouteChain
  return new ChainCollector(true, true).run(tree) as RouteChain[];
}

/**
 * Collects the chains of a tree in one depth-first walk. The tests and nodes on the way are stacks, pushed on the way down and cut
 * back on the way up, so a step allocates nothing; a route copies them once, when it ends.
 */
class ChainCollector {
  private readonly chains: Chain[] = [];
  private readonly tests: SegmentTest[] = emptyOfAnyKind();
  /** The nodes from the root to the current one, kept only for {@link RouteChain}s. */
  private readonly trail: RouteNode[] = [];

  /** False once a route is left out (its nodes below the cut are not visited). */
  sawEveryNode = true;
  sawGate = false;

  constructor(
    private readonly throughGates: boolean,
    private readonly withNodes: boolean,
  ) {}

  run(tree: RouteNode): Chain[] {
    // a root `alt` (the usual tree) is taken apart here: V8 records what `visit` sees only from its
    // first few calls on, so code compiled for it would not expect the root's `alt`
    if (tree.kind !== "alt") this.visit(tree, null, false);
    else {
      if (this.withNodes) this.trail.push(tree);
      const alternatives = tree.alternatives;
      for (let i = 0; i < alternatives.length; i++) this.visit(alternatives[i]!, null, false);
    }
    return this.chains;
  }

  private visit(node: RouteNode, method: string | null, exact: boolean): void {
    const tests = this.tests;
    const depth = tests.length;
    if (this.withNodes) this.trail.push(node);
    // the most frequent kinds first: a switch on strings tests its cases in order
    switch (node.kind) {
      case "path":
        if (!exact || node.segments.length === 0) {
          // index loops, not `for … of`: unoptimized code (most of a build) allocates an iterator result per step
          const segments = node.segments;
          for (let i = 0; i < segments.length; i++) tests.push(segments[i]!);
          this.visit(node.next, method, exact);
          // pops, not a shorter length: setting the length is a call into the runtime
          while (tests.length > depth) tests.pop();
        } else this.sawEveryNode = false;
        break;
      case "pathVar":
        if (!exact) {
          // the node is its own test: it has the label and the parser
          tests.push(node);
          this.visit(node.next, method, exact);
          tests.pop();
        } else this.sawEveryNode = false;
        break;
      case "pathEnd":
        this.visit(node.next, method, true);
        break;
      case "handler":
        this.addChain(node, method, exact);
        break;
      case "method":
        if (method === null || method === node.method) this.visit(node.next, node.method, exact);
        else this.sawEveryNode = false;
        break;
      case "alt": {
        const alternatives = node.alternatives;
        for (let i = 0; i < alternatives.length; i++) this.visit(alternatives[i]!, method, exact);
        break;
      }
      case "guard":
      case "use":
        this.sawGate = true;
        if (this.throughGates) this.visit(node.next, method, exact);
        else this.addChain(node, method, exact);
        break;
    }
    if (this.withNodes) this.trail.pop();
  }

  private addChain(leaf: Leaf, method: string | null, exact: boolean): void {
    const tests = this.tests.slice();
    if (!this.withNodes) {
      this.chains.push({ method, tests, exact, leaf });
      return;
    }
    const nodes = this.trail.slice();
    const guards = nodes.filter((n): n is GuardNode => n.kind === "guard" && n !== leaf);
    const middlewares = nodes.filter((n): n is UseNode => n.kind === "use" && n !== leaf);
    const chain: RouteChain = { method, tests, exact, leaf, nodes, guards, middlewares };
    this.chains.push(chain);
  }
}

/**
 * An empty list that V8 already holds as a list of any values: one that starts as `[]` is taken for
 * a list of small integers until the first string goes in, and code compiled for one walk's list
 * would be thrown away at the next walk's.
 */
function emptyOfAnyKind(): SegmentTest[] {
  const list: SegmentTest[] = [""];
  list.pop();
  return list;
}

/** True when the tree has a gate (a guard or a middleware) anywhere. */
export function hasGate(tree: RouteNode): boolean {
  return !GATELESS.has(tree) && (someNode(tree, "guard") || someNode(tree, "use"));
}
