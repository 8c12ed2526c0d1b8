import { alt, guard, Int, method, path, pathEnd, pathVar, Text, type RouteNode } from "../src";
import { chainsOf, hasGate, routeChainsOf } from "../src/chains";
import { labelsIn } from "../src/tree";

/*
 * The one "tree → ordered routes" walk (src/chains.ts) and the node searches of src/tree.ts:
 * what each route carries (method, tests, exact, leaf, and for the tools the nodes and guards on its
 * way), in first-match order, and searches that meet each shared subtree once and end on any tree.
 */

const a = (): string => "a";
const b = (): string => "b";
const c = (): string => "c";
const admin = (): boolean => true;

describe("chainsOf and routeChainsOf", () => {
  test("every route, in order, with its method, one test per segment, pathEnd and leaf", () => {
    const user = pathVar("id", Int, pathEnd(b));
    const tree = alt(method("GET", path("/a/b", pathEnd(a))), method("POST", path("/u", user)), path("/x", c));
    const chains = chainsOf(tree, true);
    expect(chains.map((chain) => [chain.method, chain.tests.length, chain.exact])).toEqual([
      ["GET", 2, true],
      ["POST", 2, true],
      [null, 1, false],
    ]);
    expect(chains[0]!.tests).toEqual(["a", "b"]);
    expect(chains[1]!.tests[0]).toBe("u");
    // a typed segment's test is what the tools read: its label and parser
    expect(chains[1]!.tests[1]).toMatchObject({ label: "id", parser: Int });
    expect(chains.map((chain) => (chain.leaf.kind === "handler" ? chain.leaf.handler : null))).toEqual([a, b, c]);
  });

  test("the nodes on each route run from the root (an alt too) to the leaf", () => {
    const tail = pathEnd(b);
    const middle = path("/m", tail);
    const tree = alt(path("/a", a), middle);
    const [first, second] = routeChainsOf(tree);
    expect(first!.nodes[0]).toBe(tree);
    expect(first!.nodes.map((node) => node.kind)).toEqual(["alt", "path", "handler"]);
    expect(second!.nodes.slice(0, 3)).toEqual([tree, middle, tail]);
    expect(second!.nodes.at(-1)).toBe(second!.leaf);
  });

  test("a root that is no alt is the first node of its only route", () => {
    const tree = method("GET", path("/a", pathEnd(a)));
    const [only, ...none] = routeChainsOf(tree);
    expect(none).toEqual([]);
    expect(only!.nodes[0]).toBe(tree);
    expect(only!.nodes.map((node) => node.kind)).toEqual(["method", "path", "pathEnd", "handler"]);
  });

  test("guards: passed through for find and the tools, the end of a route for dispatch", () => {
    const inner = alt(path("/p", pathEnd(a)), path("/q", pathEnd(b)));
    const guarded = guard(admin, inner);
    const tree = alt(path("/g", guarded), path("/h", c));
    const through = routeChainsOf(tree);
    expect(through.map((chain) => chain.tests)).toEqual([["g", "p"], ["g", "q"], ["h"]]);
    expect(through.map((chain) => chain.guards)).toEqual([[guarded], [guarded], []]);
    const ending = chainsOf(tree, false);
    expect(ending.map((chain) => chain.leaf)).toEqual([guarded, through[2]!.leaf]);
    expect(ending[0]!.tests).toEqual(["g"]);
  });

  test("routes that can never match are left out, and later routes do not see earlier tests", () => {
    const tree = alt(
      method("GET", method("POST", path("/never", a))),
      pathEnd(path("/after-end", b)),
      pathEnd(pathVar("v", Text, b)),
      path("/z", c),
    );
    expect(chainsOf(tree, true).map((chain) => chain.tests)).toEqual([["z"]]);
  });

  test("a subtree shared by several routes gives one route per way to it", () => {
    const shared = alt(path("/s", pathEnd(a)), path("/t", pathEnd(b)));
    const tree = alt(method("GET", shared), method("PUT", shared));
    expect(chainsOf(tree, true).map((chain) => `${chain.method} ${chain.tests.join("/")}`)).toEqual([
      "GET s",
      "GET t",
      "PUT s",
      "PUT t",
    ]);
  });
});

describe("searching the tree", () => {
  test("labelsIn and hasGate find nodes below alternatives and in shared subtrees", () => {
    const shared = pathVar("deep", Int, pathEnd(a));
    const tree = alt(
      path("/x", shared),
      method("GET", alt(path("/y", shared), pathVar("other", Text, guard(admin, b)))),
    );
    expect([...labelsIn(tree)].sort()).toEqual(["deep", "other"]);
    expect(hasGate(tree)).toBe(true);
    expect(hasGate(alt(path("/x", shared), path("/y", shared)))).toBe(false);
  });

  test("hasGate after a walk: a guard on a route the walk leaves out is still found", () => {
    const hidden = alt(method("GET", method("POST", guard(admin, a))), path("/x", pathEnd(b)));
    const afterEnd = alt(pathEnd(path("/y", guard(admin, a))), path("/x", b));
    const plain = alt(method("GET", path("/x", a)), path("/y", pathEnd(b)));
    for (const throughGates of [true, false]) {
      for (const tree of [hidden, afterEnd, plain]) chainsOf(tree, throughGates);
      expect([hasGate(hidden), hasGate(afterEnd), hasGate(plain)]).toEqual([true, true, false]);
    }
  });

  test("a long chain of single-next nodes is searched to its end", () => {
    let node: RouteNode = pathVar("last", Int, pathEnd(a));
    for (let i = 0; i < 500; i++) node = path(`/p${i}`, node);
    expect(labelsIn(node)).toEqual(["last"]);
    expect(() => pathVar("last", Text, node)).toThrow('pathVar: the label "last" is captured twice on one route');
  });

  test("a hand-made cyclic tree does not make a search loop forever", () => {
    const loop: { kind: "path"; literal: string; segments: string[]; next: RouteNode } = {
      kind: "path",
      literal: "/l",
      segments: ["l"],
      next: undefined as never,
    };
    // a cycle longer than the runs a search follows without remembering nodes
    let node: RouteNode = loop;
    for (let i = 0; i < 150; i++) node = { kind: "pathEnd", next: node };
    loop.next = node;
    expect(labelsIn(loop)).toEqual([]);
    expect(hasGate(alt(loop, a))).toBe(false);
    expect(() => pathVar("v", Int, loop)).not.toThrow();
  });
});
