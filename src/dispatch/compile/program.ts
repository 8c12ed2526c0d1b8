import type { RequestContext } from "../../request.js";
import type { GuardNode, RouteNode } from "../../tree.js";
import { Automaton, type Choice } from "./automaton.js";
import { chainsOf } from "../../chains.js";
import { CompiledRoute } from "./routes.js";
import { NONE } from "./states.js";
import { UNDECIDED } from "./target.js";

const NO_CONTINUATIONS: readonly (Program | null)[] = [];

/**
 * One compiled tree: the whole tree, or what a guard lets through once it passes (routed on its own
 * from the segment the guard was reached at, since the interpreter runs the guard whatever is below).
 */
export class Program {
  readonly automaton: Automaton;
  readonly routes: readonly CompiledRoute[];
  private readonly continuations: readonly (Program | null)[];

  /**
   * `guarded`: the routes below a guard, whose vars are always bound on top of the guard's (from the
   * walk's records, which its generated code then keeps whole). `compiled` shares the programs of
   * guards reached along several routes.
   */
  constructor(tree: RouteNode, throughGuards: boolean, guarded = false, compiled = new Map<GuardNode, Program>()) {
    const chains = chainsOf(tree, throughGuards);
    this.automaton = new Automaton(chains, guarded);
    this.routes = chains.map((chain) => new CompiledRoute(chain));
    // no route ends at a guard (the tree has none, or guards are passed through): no list to keep
    this.continuations = !chains.some((chain) => chain.leaf.kind === "guard")
      ? NO_CONTINUATIONS
      : chains.map(({ leaf }) => {
          if (leaf.kind !== "guard") return null;
          let program = compiled.get(leaf);
          if (program === undefined) compiled.set(leaf, (program = new Program(leaf.next, false, true, compiled)));
          return program;
        });
  }

  /** The program for what the guard ending route `id` lets through. */
  continuation(id: number): Program {
    return this.continuations[id]!;
  }

  /**
   * The first route after `after` (-1: from the start) matching the request from segment `offset`
   * on; or that route with its vars, where generated code chose it (see {@link Choice}).
   */
  first(request: RequestContext, offset: number, after: number): Choice {
    const automaton = this.automaton;
    const entry = automaton.entryFor(request.method);
    const path = request.path;
    if (offset === 0) {
      if (after < 0) {
        const known = automaton.firstStatic(entry, path);
        if (known !== NONE) return known;
        const walk = entry.walk;
        const read = walk !== null ? walk(path, automaton) : automaton.firstInTargetByTable(entry, path);
        if (read !== UNDECIDED) return read;
      }
      // undecoded, the raw path is the segments themselves
      if (path.indexOf("%") === -1) return automaton.firstInPath(entry, path, after);
    }
    return automaton.firstInSegments(entry, request.segments, offset, after);
  }
}
