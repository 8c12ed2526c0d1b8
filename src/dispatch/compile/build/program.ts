import { chainsOf } from "../../../chains.js";
import type { Leaf } from "../../../chains.js";
import type { RouteName } from "../../../matched-route.js";
import type { RouteNode } from "../../../tree.js";
import { CompiledRoute } from "../compiled-route.js";
import { Program } from "../run/program.js";
import { buildAutomaton } from "./automaton.js";

const NO_CONTINUATIONS: readonly (Program | null)[] = [];

/**
 * Where the code of a program's automata is reported (the printer's: explain.ts): `path` names the
 * program (`""` for the tree's own, `guard 3` for what the gate ending route 3 — a guard or a
 * middleware — lets through, and so on down), `name` the function.
 */
export type ProgramSources = (path: string, name: string, parameters: readonly string[], body: string) => void;

/**
 * The program of `tree`: its routes (with `throughGates`, gates — guards and middlewares — are
 * transparent and every route ends at a handler, as `find` wants; without, a gate ends a route and
 * what it lets through is a program of its own, as dispatch wants). `guarded`: the routes below a
 * gate, whose vars are always bound on top of the gate's (from the walk's records, which its
 * generated code then keeps whole). `compiled` shares the programs of a gate reached along several
 * routes of the same name (`req.route` names a route from the root, so one gate mounted under two
 * prefixes has two programs). `outer`: the route ending at the gate `tree` is below, for the names.
 */
export function buildProgram(
  tree: RouteNode,
  throughGates: boolean,
  guarded = false,
  compiled = new Map<Leaf, Map<string, Program>>(),
  sources?: ProgramSources,
  path = "",
  outer: RouteName | null = null,
): Program {
  const chains = chainsOf(tree, throughGates);
  const automaton = buildAutomaton(
    chains,
    guarded,
    sources && ((name, parameters, body) => sources(path, name, parameters, body)),
  );
  const routes = chains.map((chain) => new CompiledRoute(chain, outer));
  // no route ends at a gate (the tree has none, or gates are passed through): no list to keep
  const continuations = !chains.some((chain) => chain.leaf.kind !== "handler")
    ? NO_CONTINUATIONS
    : chains.map(({ leaf }, id) => {
        if (leaf.kind === "handler") return null;
        const route = routes[id]!;
        // the programs of one gate differ only by the names of their routes
        const key = route.matchedRoute.pattern;
        let byName = compiled.get(leaf);
        if (byName === undefined) compiled.set(leaf, (byName = new Map()));
        let program = byName.get(key);
        if (program === undefined) {
          const below = `${path === "" ? "" : `${path} / `}${leaf.kind === "guard" ? "guard" : "use"} ${id}`;
          program = buildProgram(leaf.next, false, true, compiled, sources, below, route.name);
          byName.set(key, program);
        }
        return program;
      });
  return new Program(automaton, routes, continuations);
}
