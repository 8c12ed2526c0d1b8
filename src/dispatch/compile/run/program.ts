import type { RequestContext } from "../../../request.js";
import { type Choice, NONE, UNDECIDED } from "../answers.js";
import type { CompiledRoute } from "../compiled-route.js";
import type { Automaton } from "./automaton.js";

/**
 * One compiled tree: the whole tree, or what a guard lets through once it passes (routed on its own
 * from the segment the guard was reached at, since the interpreter runs the guard whatever is
 * below). build/program.ts makes it.
 */
export class Program {
  /**
   * `routes[id]` is route `id` of `automaton`; `continuations[id]` the program below the guard
   * route `id` ends at (null for a route ending at a handler; an empty list when none ends at a guard).
   */
  constructor(
    readonly automaton: Automaton,
    readonly routes: readonly CompiledRoute[],
    private readonly continuations: readonly (Program | null)[],
  ) {}

  /** The program for what the guard ending route `id` lets through. */
  continuation(id: number): Program {
    return this.continuations[id]!;
  }

  /**
   * The first route after `after` (-1: from the start) matching the request from segment `offset`
   * on; or that route with its vars, where generated code chose it (see `Choice`, answers.ts).
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
