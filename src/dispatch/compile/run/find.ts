import { rawPathOf, splitPath } from "../../../segments.js";
import type { Handler } from "../../../tree.js";
import type { VarsRecord } from "../../../vars.js";
import { type MadeByCode, NO_REST, NONE, UNDECIDED } from "../answers.js";
import type { CompiledRoute } from "../compiled-route.js";
import type { Automaton } from "./automaton.js";
import type { Entry } from "./entry.js";
import type { Program } from "./program.js";

/*
 * `find` of a compiled router, and what it reports of a route however the route was chosen. Where
 * some method's walk is generated code, the generated front (generate/front.ts) takes the call
 * first and comes back here only for the cases it does not settle.
 */

/** What `CompiledRouter.find` reports: the first route that matches, without running anything. */
export interface Found {
  /** The handler function the route was given. */
  readonly handler: Handler<never>;
  /** Captured path variables, parsed; a new object that inherits nothing (see `src/vars.ts`). */
  readonly vars: VarsRecord;
  /** The decoded segments the route did not consume (what a `match` prefix leaves). */
  readonly rest: readonly string[];
}

/**
 * `find` over `program` by its tables: for entries without generated code (the front has the others,
 * and a table answers every entry alike). The target is read as it is; most are a plain path already.
 */
export function find(program: Program, method: string, url: string): Found | null {
  const automaton = program.automaton;
  const entry = automaton.entryFor(method);
  const known = automaton.firstStatic(entry, url);
  if (known !== NONE) return staticRoute(program, known, url);
  const read = automaton.firstInTargetByTable(entry, url);
  return read === UNDECIDED ? findInPath(program, entry, url) : fromRecords(program, read, url);
}

/** {@link find} for a target whose query must be cut off or whose path must be decoded first. */
export function findInPath(program: Program, entry: Entry, url: string): Found | null {
  const automaton = program.automaton;
  const path = url.charCodeAt(0) !== 47 /* / */ || url.indexOf("?") !== -1 ? rawPathOf(url) : url;
  if (path.indexOf("%") === -1) {
    const choice = automaton.firstInPath(entry, path, -1);
    return typeof choice !== "number" ? foundOfMade(choice) : fromRecords(program, choice, path);
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
function foundOfMade(choice: MadeByCode): Found | null {
  return choice.handler !== null ? (choice as Found) : null;
}

/** What `find` reports for the static route `id`, which the whole target `url` is: no variables, and nothing left of the path. */
export function staticRoute(program: Program, id: number, url: string): Found | null {
  return found(program.routes[id]!, program.automaton, url, NO_REST);
}

/** What `find` reports for route `id` (NONE: none), chosen by a walk of the raw path `path` that left it in the records. */
export function fromRecords(program: Program, id: number, path: string): Found | null {
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
