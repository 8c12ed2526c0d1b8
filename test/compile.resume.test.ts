import fc from "fast-check";
import {
  alt,
  compile,
  guard,
  inject,
  Int,
  interpreter,
  json,
  method,
  path,
  pathEnd,
  pathVar,
  routeMismatch,
  Text,
  Word,
  type PathParser,
  type RouteNode,
} from "../src";

/*
 * Resuming after every route of a random table: route i's handler (or its guard) turns the request
 * down when i ≤ k, for every k, so the compiled dispatcher has to resume after each route in turn
 * exactly where the interpreter goes on.
 */

const segment = fc.constantFrom("a", "b", "7", "42");
const test_ = fc.oneof(
  segment,
  fc.constantFrom<PathParser<unknown>>(Int as PathParser<unknown>, Word as PathParser<unknown>, Text),
);
const routeArbitrary = fc.record({
  verb: fc.constantFrom("GET", "POST", null),
  tests: fc.array(test_, { maxLength: 3 }),
  exact: fc.boolean(),
  guarded: fc.boolean(),
});
const requestArbitrary = fc.record({
  verb: fc.constantFrom("GET", "POST"),
  segments: fc.array(fc.constantFrom("a", "b", "7", "42", "x", "", "%61"), { maxLength: 4 }),
});

type Spec = typeof routeArbitrary extends fc.Arbitrary<infer S> ? S : never;

/** The table as a tree; routes at index ≤ `state.k` turn requests down. */
function treeOf(specs: readonly Spec[], state: { k: number }): RouteNode {
  return alt(
    ...specs.map((spec, id) => {
      const answer = (request: { vars: object; rest: readonly string[] }) =>
        id <= state.k ? routeMismatch() : json({ id, vars: request.vars, rest: request.rest });
      let node: RouteNode = spec.guarded ? guard(() => id > state.k, alt(answer)) : alt(answer);
      if (spec.exact) node = pathEnd(node);
      for (let i = spec.tests.length - 1; i >= 0; i--) {
        const t = spec.tests[i]!;
        node = typeof t === "string" ? path(`/${t}`, node) : pathVar(`v${i}`, t, node);
      }
      return spec.verb === null ? node : method(spec.verb, node);
    }),
  );
}

test("compile ≡ interpret when routes turn the request down up to route k, for every k (resume after every route)", async () => {
  const resumedTo = new Set<number>();
  await fc.assert(
    fc.asyncProperty(
      fc.array(routeArbitrary, { minLength: 1, maxLength: 10 }),
      fc.array(requestArbitrary, { minLength: 1, maxLength: 6 }),
      async (specs, requests) => {
        const state = { k: -1 };
        const tree = treeOf(specs, state);
        const compiled = compile(tree);
        for (const { verb, segments } of requests) {
          const request = { method: verb, url: `/${segments.join("/")}` };
          for (state.k = -1; state.k < specs.length; state.k++) {
            const expected = await inject(tree, request, { dispatcher: interpreter });
            const actual = await inject(tree, request, { dispatcher: () => compiled.dispatch });
            expect(actual).toEqual(expected);
            if (actual.status === 200) resumedTo.add((JSON.parse(actual.body) as { id: number }).id);
          }
        }
      },
    ),
    { seed: 1212, numRuns: 300 },
  );
  // the answers came from routes all over the tables, not from 404s only
  expect([...resumedTo].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
});
