import { type Chain, hasGate } from "../../chains.js";
import type { Route } from "../../tree.js";
import { NONE } from "./answers.js";
import { ANY_METHOD, GENERATED_ROUTES } from "./build/automaton.js";
import { buildProgram } from "./build/program.js";
import { frontOf } from "./index.js";
import type { Entry } from "./run/entry.js";
import type { Program } from "./run/program.js";
import type { State } from "./run/state.js";
import { rawCanHold } from "./run/target.js";

/*
 * The printer: what `compile` builds for a tree, as text. It builds the tree again with a sink for
 * the generated sources (`compile` keeps none), so what it shows is made by the same code.
 */

/** What {@link explainCompiled} shows: everything, only the automata, or only the generated code. */
export type ExplainedPart = "all" | "automaton" | "code";

/** What the state lines say, once at the top. */
const LEGEND = [
  "sN depth D: a state, D segments read. end: the routes that match when the path ends there, in",
  "first-match order; rest: those that match even with segments left (prefixes); onward: the first",
  "route that wants more segments; literals: where each literal segment goes; other segment: where",
  "any other goes (by the set of parsers that accept it, where parsers decide); none: nowhere.",
].join("\n");

/** One generated function, as made: the program it belongs to, what it is, its parameters and body. */
interface Source {
  readonly program: string;
  readonly name: string;
  readonly parameters: readonly string[];
  readonly body: string;
}

/**
 * A readable account of what `compile(tree)` builds, for debugging and review: per program (the
 * tree's, one per guard for what it lets through, and `find`'s where the tree has guards) its
 * routes in first-match order; per request method its entry (static paths, generated walk or table
 * walk) and the automaton's states, each with the routes it accepts (`end`: when the path ends
 * there; `rest`: even with segments left), the first route still wanting segments (`onward`), its
 * literals (one compared in place, or a table of slots; `decoded only`: literals a raw segment
 * cannot be) and where any other segment goes (one state, nowhere, or by the verdicts of parsers);
 * then the JavaScript generated for it, indented for reading, as `new Function` was given it.
 * Where the runtime forbids code generation, there is none, and the text says the tables answer.
 *
 * It compiles the tree again (with the generated sources kept, which `compile` does not keep), so
 * call it to look, not per request. The text is for people; its layout may change between versions.
 *
 * @param part `"automaton"` or `"code"` for only that half (the code of a large table can be long).
 * @example
 * ```ts
 * console.log(explainCompiled(alt(route("GET /users/id:Int", byId), route("GET /users/name:Text", byName))));
 * ```
 */
export function explainCompiled(tree: Route, part: ExplainedPart = "all"): string {
  const sources: Source[] = [];
  const sink = (program: string, name: string, parameters: readonly string[], body: string) =>
    sources.push({ program, name, parameters, body });
  const guarded = hasGate(tree);
  const dispatch = buildProgram(tree, false, false, new Map(), sink, guarded ? "dispatch" : "dispatch and find");
  const find = guarded ? buildProgram(tree, true, false, new Map(), sink, "find") : dispatch;
  frontOf(find, (parameters, body) => sink(guarded ? "find" : "dispatch and find", "find front", parameters, body));
  // every program by its names: a guard's is shared by the routes that reach the same guard node
  const programs = new Map<Program, string[]>();
  const listed = (program: Program, name: string): void => {
    const names = programs.get(program);
    if (names !== undefined) {
      names.push(name);
      return;
    }
    programs.set(program, [name]);
    program.routes.forEach((route, id) => {
      if (route.leaf.kind !== "handler")
        listed(program.continuation(id), `${name} / ${route.leaf.kind === "guard" ? "guard" : "use"} ${id}`);
    });
  };
  listed(dispatch, guarded ? "dispatch" : "dispatch and find");
  if (guarded) listed(find, "find");
  const out = part === "code" ? [] : [LEGEND, ""];
  for (const [program, [name, ...also]] of programs) {
    const same = also.length > 0 ? `, also ${also.join(", ")}` : "";
    out.push(
      `program ${name}${/(guard|use) \d+$/.test(name!) ? ` (what the ${name!.includes("guard") ? "guard" : "middleware"} lets through, from its segment on${same})` : ""}`,
    );
    if (part !== "code") out.push(...automatonOf(program));
    if (part !== "automaton") out.push(...codeOf(sources.filter((source) => source.program === name)));
    out.push("");
  }
  return out.join("\n");
}

/** The routes, entries and states of `program`'s automaton. */
function automatonOf(program: Program): string[] {
  const { chains } = program.automaton;
  const out = [`  routes, in first-match order:${chains.length === 0 ? " none" : ""}`];
  const rows = chains.map((chain, id) => [`#${id}`, chain.method ?? "*", template(chain), leafOf(chain)]);
  out.push(...aligned(rows).map((row) => `    ${row}`));
  const { methods, entries, otherwise } = program.automaton.byMethod();
  const names = new Map<State, string>();
  const all: [string, Entry][] = [...methods.map((method, i): [string, Entry] => [method, entries[i]!])];
  all.push([ANY_METHOD, otherwise]);
  for (const [method, entry] of all) {
    const ids = chains.flatMap((chain, id) => (chain.method === null || chain.method === method ? [id] : []));
    out.push(`  entry ${method === ANY_METHOD ? "* (any other method)" : method}: ${routeList(ids) || "no route"}`);
    out.push(`    static paths: ${staticsOf(entry, method)}`);
    const walk = entry.walk !== null ? `generated code ("${method} walk" below)` : "table walk";
    const why =
      entry.walk === null && chains.length > GENERATED_ROUTES ? ` (more than ${GENERATED_ROUTES} routes)` : "";
    out.push(`    walk: ${entry.start === null ? "none (no route)" : `${walk}${why}`}`);
    if (entry.start !== null) out.push(...statesFrom(entry.start, names));
  }
  return out;
}

/** How an entry's static paths are kept, with the paths of a table. */
function staticsOf(entry: Entry, method: string): string {
  if (entry.staticCode !== null) return `generated switch ("${method} static paths" below)`;
  if (entry.statics === null) return "none";
  const paths = entry.statics.entries().sort(([a], [b]) => (a < b ? -1 : 1));
  return `table: ${paths.map(([path, route]) => `${JSON.stringify(path)} → #${route}`).join(", ")}`;
}

/** The states reached from `start` not listed yet (named in `names`, shared by a program's entries), in the order first reached. */
function statesFrom(start: State, names: Map<State, string>): string[] {
  const name = (state: State | null): string => {
    if (state === null) return "none";
    let known = names.get(state);
    if (known === undefined) names.set(state, (known = `s${names.size}`));
    return known;
  };
  const listed = names.has(start);
  const queue = listed ? [] : [start];
  const out = [`    states from ${name(start)}${listed ? " (listed above)" : ""}:`];
  const follow = (state: State | null): string => {
    if (state !== null && !names.has(state)) queue.push(state);
    return name(state);
  };
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    const head = [`      ${name(state)}  depth ${state.depth}`];
    const end = routeList(state.endRoutes);
    const rest = routeList(state.prefixRoutes);
    if (end !== "") head.push(`end: ${end}`);
    if (rest !== "") head.push(`rest: ${rest}`);
    head.push(`onward: ${state.onward === NONE ? "none" : `#${state.onward}`}`);
    out.push(head.join("  "));
    const literals = state.literals();
    const raw = literals.filter(([literal]) => rawCanHold(literal));
    const decoded = literals.filter(([literal]) => !rawCanHold(literal));
    if (raw.length > 0) {
      const kept = state.literalSlots() === 0 ? "literal" : `literals (table of ${state.literalSlots()} slots)`;
      out.push(
        `          ${kept}: ${raw.map(([literal, next]) => `${JSON.stringify(literal)} → ${follow(next)}`).join(", ")}`,
      );
    }
    if (decoded.length > 0)
      out.push(
        `          decoded only: ${decoded.map(([l, next]) => `${JSON.stringify(l)} → ${follow(next)}`).join(", ")}`,
      );
    out.push(`          other segment → ${othersOf(state, follow)}`);
  }
  return out;
}

/** Where a segment that is no literal of `state` goes: one state, none, or by the verdicts of its parsers. */
function othersOf(state: State, follow: (state: State | null) => string): string {
  const otherwise = state.otherwise;
  if (otherwise !== undefined) return follow(otherwise);
  const deciders = state.deciders();
  const byMask: string[] = [];
  for (let mask = 0; mask < 1 << deciders.length; mask++) {
    // (past four parsers, the state of a set of verdicts is built when it first occurs)
    const target = state.targetOf(mask);
    if (target === undefined) continue;
    const accepted = deciders.filter((_, i) => (mask & (1 << i)) !== 0).map((parser) => parser.name);
    byMask.push(`{${accepted.join(",")}} → ${follow(target)}`);
  }
  if (!state.parsedTargetsComplete())
    byMask.push(`${byMask.length === 0 ? "the state of each set" : "other sets"} built when it first occurs`);
  return `by parsers ${deciders.map((parser) => parser.name).join(", ")}: ${byMask.join(", ")}`;
}

/** The routes of an ascending list (NONE-terminated or not), `#i` each, a run of four or more as `#i–#j`. */
function routeList(routes: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < routes.length && routes[i] !== NONE; ) {
    let j = i;
    while (j + 1 < routes.length && routes[j + 1] === routes[j]! + 1) j++;
    out.push(
      j - i >= 3
        ? `#${routes[i]}–#${routes[j]}`
        : routes
            .slice(i, j + 1)
            .map((route) => `#${route}`)
            .join(" "),
    );
    i = j + 1;
  }
  return out.join(" ");
}

/** A route's path as a template (`/users/{id:Int}`, `/…` after a prefix), as the route listing writes it. */
function template(chain: Chain): string {
  const segments = chain.tests.map((test) => (typeof test === "string" ? test : `{${test.label}:${test.parser.name}}`));
  const path = `/${segments.join("/")}`;
  return chain.exact ? path : `${path === "/" ? "" : path}/…`;
}

/** What a route ends at: its handler (by name, where it has one), a guard or a middleware. */
function leafOf(chain: Chain): string {
  const leaf = chain.leaf;
  if (leaf.kind === "guard") return `guard ${leaf.predicate.name || "<inline>"}`;
  if (leaf.kind === "use") return `use ${leaf.middleware.name || "<inline>"}`;
  return `handler ${leaf.info?.name ?? (leaf.handler.name || "<inline>")}`;
}

/** Rows of cells, each column as wide as its widest cell. */
function aligned(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => row[c]!.length))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join("  ")
      .trimEnd(),
  );
}

/** The generated functions, each indented by its braces. */
function codeOf(sources: readonly Source[]): string[] {
  if (sources.length === 0) return ["  generated code: none (the tables answer)"];
  const out = ["  generated code:"];
  for (const { name, parameters, body } of sources) {
    out.push(`    // ${name}`, `    function (${parameters.join(", ")}) {`);
    out.push(...indented(body.split("\n"), 3), "    }");
  }
  return out;
}

/** `lines` of generated code indented by their braces (outside string literals), from `depth` on. */
function indented(lines: readonly string[], depth: number): string[] {
  return lines.map((line) => {
    let opened = 0;
    let leading = 0;
    let counting = true;
    for (let i = 0; i < line.length; i++) {
      const c = line[i];
      if (c === '"') {
        // a string literal (JSON, or "use strict", or "number"): skip to its end
        for (i++; i < line.length && line[i] !== '"'; i++) if (line[i] === "\\") i++;
        counting = false;
      } else if (c === "{") {
        opened++;
        counting = false;
      } else if (c === "}") {
        opened--;
        if (counting) leading++;
      } else if (c !== " ") counting = false;
    }
    const at = depth - leading;
    depth += opened;
    return `${"  ".repeat(Math.max(at, 0))}${line}`;
  });
}
