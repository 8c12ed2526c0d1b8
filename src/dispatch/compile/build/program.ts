import { chainsOf } from "../../../chains.js";
import type { GuardNode, RouteNode } from "../../../tree.js";
import { CompiledRoute } from "../compiled-route.js";
import { Program } from "../run/program.js";
import { buildAutomaton } from "./automaton.js";

const NO_CONTINUATIONS: readonly (Program | null)[] = [];

/**
 * Where the code of a program's automata is reported (the printer's: explain.ts): `path` names the
 * program (`""` for the tree's own, `guard 3` for what the guard ending route 3 lets through, and so
 * on down), `name` the function.
 */
export type ProgramSources = (path: string, name: string, parameters: readonly string[], body: string) => void;

/**
 * The program of `tree`: its routes (with `throughGuards`, guards are transparent and every route
 * ends at a handler, as `find` wants; without, a guard ends a route and what it lets through is a
 * program of its own, as dispatch wants). `guarded`: the routes below a guard, whose vars are always
 * bound on top of the guard's (from the walk's records, which its generated code then keeps whole).
 * `compiled` shares the programs of guards reached along several routes.
 */
export function buildProgram(
  tree: RouteNode,
  throughGuards: boolean,
  guarded = false,
  compiled = new Map<GuardNode, Program>(),
  sources?: ProgramSources,
  path = "",
): Program {
  const chains = chainsOf(tree, throughGuards);
  const automaton = buildAutomaton(
    chains,
    guarded,
    sources && ((name, parameters, body) => sources(path, name, parameters, body)),
  );
  const routes = chains.map((chain) => new CompiledRoute(chain));
  // no route ends at a guard (the tree has none, or guards are passed through): no list to keep
  const continuations = !chains.some((chain) => chain.leaf.kind === "guard")
    ? NO_CONTINUATIONS
    : chains.map(({ leaf }, id) => {
        if (leaf.kind !== "guard") return null;
        let program = compiled.get(leaf);
        if (program === undefined) {
          const below = `${path === "" ? "" : `${path} / `}guard ${id}`;
          compiled.set(leaf, (program = buildProgram(leaf.next, false, true, compiled, sources, below)));
        }
        return program;
      });
  return new Program(automaton, routes, continuations);
}
