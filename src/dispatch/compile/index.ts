import { hasGate } from "../../chains.js";
import type { Route } from "../../tree.js";
import type { Dispatch } from "../dispatcher.js";
import { buildProgram } from "./build/program.js";
import type { SourceSink } from "./generate/code.js";
import { type Finder, generateFront } from "./generate/front.js";
import { attempt } from "./run/dispatch.js";
import { type Found, find, findInPath, fromRecords, staticRoute } from "./run/find.js";
import type { Program } from "./run/program.js";

/*
 * The compiled dispatcher: `compile` builds a program of the tree (build/), with generated code where
 * it pays (generate/), and answers lookups over it (run/). README.md beside this file is the map.
 */

export type { Found };

/** A route tree compiled for lookup: same answers as {@link interpret}, without scanning routes. */
export interface CompiledRouter {
  /**
   * The first route, in order, whose method and path match `url` (a request target; any query is
   * ignored), or `null`. Guards are taken as passing and handlers are not run, so a handler's
   * `routeMismatch()` is not seen here; `dispatch` honours both.
   */
  find(method: string, url: string): Found | null;
  /** Routes a request exactly as the interpreter does; what adapters call. */
  readonly dispatch: Dispatch;
}

/**
 * Compiles a route tree into a dispatcher that gives the same answer as {@link interpret} for every
 * request: literal segments are looked up in maps, typed segments are decided by their parsers, and
 * the routes a request could reach stay in declaration order, so the first match wins and
 * `routeMismatch()` falls through to the next one. Parsers must be pure (the same segment always
 * parses the same way); their verdicts on literal segments are taken at compile time.
 */
export function compile(tree: Route): CompiledRouter {
  const program = buildProgram(tree, false);
  // made on first use: through guards, a program of its own (guards are taken as passing), and the
  // generated front of find where it has generated walks
  let lookup: Program | undefined;
  let front: Finder<Found> | null = null;
  return {
    find(method, url) {
      if (lookup === undefined) {
        lookup = hasGate(tree) ? buildProgram(tree, true) : program;
        front = frontOf(lookup);
      }
      // (two calls, not one to a function chosen per router: this code is every router's, and a call
      // whose target changed with each router built was not inlined, which made the table walk's
      // lookups 10-16 % slower in a process that had built small tables before)
      return front !== null ? front(method, url) : find(lookup, method, url);
    },
    dispatch: (request) => attempt(program, request, 0, null, -1),
  };
}

/**
 * The generated front of `find` over `program`, where its entries have generated walks, else null;
 * `sink` is told its source (the printer's: explain.ts).
 */
export function frontOf(program: Program, sink?: SourceSink): Finder<Found> | null {
  const automaton = program.automaton;
  return generateFront(
    automaton.byMethod(),
    automaton,
    {
      staticRoute: (route, url) => staticRoute(program, route, url),
      fromRecords: (route, url) => fromRecords(program, route, url),
      undecided: (entry, url) => findInPath(program, entry, url),
      general: (method, url) => find(program, method, url),
    },
    sink,
  );
}
