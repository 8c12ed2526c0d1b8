import fc from "fast-check";
import { alt, guard, Int, match, method, path, pathEnd, pathVar, PatternError, type RouteNode, use } from "../src";
import { labelsIn } from "../src/tree";

/*
 * The label checks keep what they learned about an `alt` (src/tree.ts, `ALT_LABELS`), so the answers
 * must be those of a fresh walk, whatever was asked before and in whatever order. Random trees are
 * grown as a pool: each step makes a node over earlier ones (so subtrees are shared, and `alt`s nest),
 * asks about an earlier node (so answers are kept before the nodes above them are built), or changes a
 * hand-made (unfrozen) `alt`, whose answer must never be kept. Every answer is compared with
 * `reference`, a plain walk that keeps nothing.
 */

const LABELS = ["a", "b", "c", "d", "e"];
const RUNS = 300;
const SEED = 27;

/** Every label a `pathVar` in the tree captures: a walk over every node, each once. */
function reference(root: RouteNode): Set<string> {
  const seen = new Set<RouteNode>();
  const labels = new Set<string>();
  const todo = [root];
  for (let node = todo.pop(); node !== undefined; node = todo.pop()) {
    if (seen.has(node)) continue;
    seen.add(node);
    if (node.kind === "pathVar") labels.add(node.label);
    if (node.kind === "alt") todo.push(...node.alternatives);
    else if (node.kind !== "handler") todo.push(node.next);
  }
  return labels;
}

type Step =
  | { readonly kind: "path" | "pathEnd" | "method" | "guard" | "use" | "ask"; readonly pick: number }
  | { readonly kind: "pathVar" | "match"; readonly label: string; readonly pick: number }
  | { readonly kind: "alt" | "handMade"; readonly picks: readonly number[] }
  | { readonly kind: "change"; readonly target: number; readonly pick: number };

const pick = fc.nat({ max: 1000 });
const label = fc.constantFrom(...LABELS);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom("path", "pathEnd", "method", "guard", "use", "ask"), pick }),
  { arbitrary: fc.record({ kind: fc.constantFrom("pathVar", "match"), label, pick }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant("alt"), picks: fc.array(pick, { minLength: 2, maxLength: 5 }) }),
    weight: 2,
  },
  fc.record({ kind: fc.constant("handMade"), picks: fc.array(pick, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant("change"), target: pick, pick }),
);

const sorted = (labels: Iterable<string>): string[] => [...labels].sort();
const ok = (): string => "ok";

/** Runs the steps; checks every answer against `reference`. */
function grow(steps: readonly Step[]): void {
  const pool: RouteNode[] = [pathEnd(ok), pathVar("a", Int, ok), path("/x", ok)];
  const handMade: { kind: "alt"; alternatives: RouteNode[] }[] = [];
  const at = (i: number): RouteNode => pool[i % pool.length]!;
  const check = (node: RouteNode): void => {
    const got = labelsIn(node);
    expect(sorted(got)).toEqual(sorted(reference(node)));
    expect(new Set(got).size).toBe(got.length);
  };
  for (const s of steps) {
    switch (s.kind) {
      case "ask":
        check(at(s.pick));
        continue;
      case "change": {
        const target = handMade[s.target % Math.max(handMade.length, 1)];
        if (target !== undefined) target.alternatives.push(at(s.pick));
        continue;
      }
      case "pathVar":
      case "match": {
        const inner = at(s.pick);
        const clash = reference(inner).has(s.label);
        const build = (): RouteNode =>
          s.kind === "pathVar" ? pathVar(s.label, Int, inner) : match(`/m/${s.label}:Int` as string, inner);
        if (clash) expect(build).toThrow(s.kind === "pathVar" ? TypeError : PatternError);
        else pool.push(build());
        break;
      }
      case "alt":
        pool.push(alt(...s.picks.map(at)));
        break;
      case "handMade": {
        const node = { kind: "alt" as const, alternatives: s.picks.map(at) };
        handMade.push(node);
        pool.push(node);
        break;
      }
      case "path":
        pool.push(path("/p", at(s.pick)));
        break;
      case "pathEnd":
        pool.push(pathEnd(at(s.pick)));
        break;
      case "method":
        pool.push(method("GET", at(s.pick)));
        break;
      case "guard":
        pool.push(guard(() => true, at(s.pick)));
        break;
      case "use":
        pool.push(use((_request, next) => next(), at(s.pick)));
        break;
    }
    check(pool.at(-1)!);
  }
  for (const node of pool) check(node);
}

describe("the labels a tree captures, with answers kept per alt", () => {
  test("labelsIn, pathVar's and match's duplicate checks agree with a fresh walk on random trees", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (steps) => grow(steps)),
      { numRuns: RUNS, seed: SEED },
    );
  });

  test("an alt's answer is kept only when every node below is frozen: a hand-made node may change", () => {
    const handMade: { kind: "alt"; alternatives: RouteNode[] } = { kind: "alt", alternatives: [pathEnd(ok)] };
    const frozen = alt(path("/x", handMade), pathVar("a", Int, ok));
    expect(sorted(labelsIn(frozen))).toEqual(["a"]);
    handMade.alternatives.push(pathVar("b", Int, ok));
    expect(sorted(labelsIn(frozen))).toEqual(["a", "b"]);
    expect(() => pathVar("b", Int, frozen)).toThrow('pathVar: the label "b" is captured twice on one route');
    expect(() => match("/p/b:Int" as string, frozen)).toThrow(/captured again/);
  });
});
