import type { Chain } from "../../../chains.js";
import { type CodeBudget, type SourceSink } from "../generate/code.js";
import { generateStaticSwitch } from "../generate/static-switch.js";
import { generateWalk } from "../generate/walk.js";
import { Automaton } from "../run/automaton.js";
import type { Entry } from "../run/entry.js";
import { StaticPaths } from "../run/static-paths.js";
import { rawCanHold } from "../run/target.js";
import { StateBuilder } from "./states.js";

/** Lines of generated code one automaton may have, all methods together (see {@link CodeBudget}). */
const GENERATED_LINES = 1200;
/**
 * Tables of more routes get no generated code: there it only covered the first levels, and the
 * hand-overs to the table walk cost what it saved (GitHub's 516 routes: 7–13 % slower; 1,000 and
 * 10,000 routes: level; notes/issue-12.md, round 2).
 */
export const GENERATED_ROUTES = 256;

/**
 * Where generated code is reported while an automaton is built (the printer's: explain.ts): each
 * function's source, named by what it is for (`GET walk`, `* static paths`, …).
 */
export type NamedSources = (name: string, parameters: readonly string[], body: string) => void;

/** The entry name of the routes of no method, in {@link NamedSources}: any method without an entry of its own. */
export const ANY_METHOD = "*";

/**
 * The automaton of `chains` (the routes, in first-match order): per method, its states, its static
 * paths and, where the runtime allows it and the table is small, generated code for both.
 * `keepRecords`: every walk leaves the bounds of every segment it read in its records, generated
 * code too (see generate/walk.ts): for a guard's routes, whose vars are bound from them.
 */
export function buildAutomaton(chains: readonly Chain[], keepRecords = false, sources?: NamedSources): Automaton {
  const builder = new StateBuilder(chains);
  const budget: CodeBudget = { lines: chains.length <= GENERATED_ROUTES ? GENERATED_LINES : 0 };
  // the static paths are found by walking the automaton without them: a walker of decoded segments
  const walker = new Automaton(chains, [], [], NO_ENTRY);
  const made = (method: string, ids: readonly number[]): Entry =>
    entryOf(chains, builder, walker, budget, ids, keepRecords, sources && named(sources, method));
  // the routes of each method, in one pass: a route with no method is in every list
  const byMethod = new Map<string, number[]>();
  const anyMethod: number[] = [];
  for (let id = 0; id < chains.length; id++) {
    const method = chains[id]!.method;
    if (method === null) {
      anyMethod.push(id);
      for (const ids of byMethod.values()) ids.push(id);
      continue;
    }
    const ids = byMethod.get(method);
    if (ids !== undefined) ids.push(id);
    else byMethod.set(method, [...anyMethod, id]);
  }
  const methods: string[] = [];
  const entries: Entry[] = [];
  for (const [method, ids] of byMethod) {
    methods.push(method);
    entries.push(made(method, ids));
  }
  return new Automaton(chains, methods, entries, made(ANY_METHOD, anyMethod));
}

/** The entry of no route, for the walker that finds static paths. */
const NO_ENTRY: Entry = { start: null, statics: null, staticCode: null, walk: null };

/** `sources` for the code of the entry of `method`: `<method> walk`, `<method> static paths`. */
function named(sources: NamedSources, method: string): (what: string) => SourceSink {
  return (what) => (parameters, body) => sources(`${method} ${what}`, parameters, body);
}

/** The entry for the routes `ids` (ascending). */
function entryOf(
  chains: readonly Chain[],
  builder: StateBuilder,
  walker: Automaton,
  budget: CodeBudget,
  ids: readonly number[],
  keepRecords: boolean,
  sink: ((what: string) => SourceSink) | undefined,
): Entry {
  const walked: Entry = { start: builder.state(0, ids), statics: null, staticCode: null, walk: null };
  const statics = new Map<string, number>();
  for (let k = 0; k < ids.length; k++) {
    const id = ids[k]!;
    const tests = chains[id]!.tests;
    // a static path is a raw one: literals only, each one a raw segment can be
    if (!tests.every((t) => typeof t === "string" && rawCanHold(t))) continue;
    const winner = walker.firstInSegments(walked, tests as string[], 0, -1);
    const chain = chains[winner];
    if (chain !== undefined && chain.tests.length === tests.length && chain.tests.every((t) => typeof t === "string")) {
      statics.set(`/${tests.join("/")}`, winner);
    }
  }
  // no budget left: generating code would only be thrown away
  const generate = budget.lines > 0;
  const walk =
    walked.start === null || !generate
      ? null
      : generateWalk(walked.start, (route) => chains[route]!, keepRecords, budget, sink?.("walk"));
  // generated code where allowed and small enough, else a table (always on Cloudflare Workers)
  const staticCode =
    statics.size > 0 && generate ? generateStaticSwitch(statics, budget, sink?.("static paths")) : null;
  return {
    start: walked.start,
    statics: staticCode === null && statics.size > 0 ? new StaticPaths(statics) : null,
    staticCode,
    walk,
  };
}
