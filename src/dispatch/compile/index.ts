import { rawPathOf, splitPath } from "../../segments.js";
import type { Handler, Route } from "../../tree.js";
import type { Dispatch } from "../dispatcher.js";
import { hasGuard } from "../../chains.js";
import { Program } from "./program.js";
import type { Vars } from "../../vars.js";
import { attempt } from "./run.js";
import { NONE } from "./states.js";
import { NO_REST, UNDECIDED } from "./target.js";
import type { Automaton, Entry } from "./automaton.js";
import type { CompiledRoute } from "./routes.js";
import type { Chosen } from "./walkSwitch.js";
import { type Finder, generatedFront } from "./front.js";

/** What {@link CompiledRouter.find} reports: the first route that matches, without running anything. */
export interface Found {
  /** The handler function the route was given. */
  readonly handler: Handler<never>;
  /** Captured path variables, parsed; a new object that inherits nothing (see `src/vars.ts`). */
  readonly vars: Vars;
  /** The decoded segments the route did not consume (what a `match` prefix leaves). */
  readonly rest: readonly string[];
}

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
  const program = new Program(tree, false);
  // made on first use: through guards, a program of its own (guards are taken as passing), and the
  // generated front of find where it has generated walks
  let lookup: Program | undefined;
  let front: Finder<Found> | null = null;
  return {
    find(method, url) {
      if (lookup === undefined) {
        lookup = hasGuard(tree) ? new Program(tree, true) : program;
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

/** The generated front of `find` over `program`, where its entries have generated walks, else null. */
function frontOf(program: Program): Finder<Found> | null {
  const automaton = program.automaton;
  return generatedFront(automaton.byMethod(), automaton, {
    staticRoute: (route, url) => staticRoute(program, route, url),
    chosen: (route, url) => chosen(program, route, url),
    undecided: (entry, url) => findInPath(program, entry, url),
    general: (method, url) => find(program, method, url),
  });
}

/**
 * `find` over `program` by its tables: for entries without generated code (the front has the others,
 * and a table answers every entry alike). The target is read as it is; most are a plain path already.
 */
function find(program: Program, method: string, url: string): Found | null {
  const automaton = program.automaton;
  const entry = automaton.entryFor(method);
  const known = automaton.firstStatic(entry, url);
  if (known !== NONE) return staticRoute(program, known, url);
  const read = automaton.firstInTargetByTable(entry, url);
  return read === UNDECIDED ? findInPath(program, entry, url) : chosen(program, read, url);
}

/** {@link find} for a target whose query must be cut off or whose path must be decoded first. */
function findInPath(program: Program, entry: Entry, url: string): Found | null {
  const automaton = program.automaton;
  const path = url.charCodeAt(0) !== 47 /* / */ || url.indexOf("?") !== -1 ? rawPathOf(url) : url;
  if (path.indexOf("%") === -1) {
    const choice = automaton.firstInPath(entry, path, -1);
    return typeof choice !== "number" ? madeByCode(choice) : chosen(program, choice, path);
  }
  const segments = splitPath(path);
  const id = automaton.firstInSegments(entry, segments, 0, -1);
  if (id === NONE) return null;
  const route = program.routes[id]!;
  return found(route, automaton, path, automaton.endedAt(route.depth) ? NO_REST : segments.slice(route.depth));
}

/**
 * What `find` reports for a route generated code chose: what the code made (most hits on small
 * tables). Its handler is null only where a route ends at a guard, which `find`'s program has not.
 */
function madeByCode(choice: Chosen): Found | null {
  return choice.handler !== null ? (choice as Found) : null;
}

/** What `find` reports for the static route `id`, which the whole target `url` is: no variables, and nothing left of the path. */
function staticRoute(program: Program, id: number, url: string): Found | null {
  return found(program.routes[id]!, program.automaton, url, NO_REST);
}

/** What `find` reports for route `id` (NONE: none), chosen by a walk of the raw path `path`. */
function chosen(program: Program, id: number, path: string): Found | null {
  if (id === NONE) return null;
  const automaton = program.automaton;
  const route = program.routes[id]!;
  return found(
    route,
    automaton,
    path,
    automaton.endedAt(route.depth) ? NO_REST : automaton.restAfter(route.depth, path),
  );
}

/**
 * What `find` reports for `route`: its vars bound from the walk's records (of the raw path `path`,
 * or of its decoded segments).
 */
function found(route: CompiledRoute, automaton: Automaton, path: string, rest: readonly string[]): Found | null {
  const handler = route.handler;
  // guards are transparent in this program: every route ends at a handler
  if (handler === null) return null;
  return { handler, vars: route.bind(null, automaton, path), rest };
}
