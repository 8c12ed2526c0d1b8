import { NONE, type State } from "./states.js";

/**
 * What a generated walk reads and writes on the automaton: the same records as its table walk, and
 * that walk itself, which takes over below the generated states.
 */
export interface WalkRecords {
  /** Starts a walk of the raw path `path` (new walk number, nothing consumed yet). */
  begin(path: string): void;
  readonly bounds: number[];
  consumed: number;
  complete: boolean;
  /** The table walk from `state` at `depth`, with a segment starting at `start`; `best` so far. */
  walkFrom(state: State, depth: number, start: number, best: number): number;
}

/** The first route for a raw path (no `%`, no query), from the start. */
export type GeneratedWalk = (path: string, records: WalkRecords) => number;

/** Past this many lines, states are left to the table walk (a long function stays cold). */
const MOST_LINES = 300;
/** States deeper than this are left to the table walk. */
const DEEPEST = 3;

/**
 * The first levels of one method's automaton as generated code: each state's literals compared in
 * place, character by character (no `indexOf`, no slice), grouped by their first character, and
 * the next state's code inline. A state whose next segment parsers decide, a state deeper than
 * {@link DEEPEST}, and everything past {@link MOST_LINES} go to the table walk, which records the
 * same things. Null where the runtime forbids code generation. Literals enter the code as character
 * codes, states through an array, routes as integers: nothing from a route table is code.
 */
export function walkSwitch(start: State): GeneratedWalk | null {
  const states: State[] = [];
  const lines: string[] = [];
  const stateRef = (state: State): string => {
    let index = states.indexOf(state);
    if (index === -1) index = states.push(state) - 1;
    return `S[${index}]`;
  };

  /** Code for arriving at `state` (depth `depth`) with a segment starting at `st`. */
  const emit = (state: State, depth: number): void => {
    if (state.prefixFirst !== NONE) lines.push(`if (${state.prefixFirst} < best) best = ${state.prefixFirst};`);
    if (state.onward === NONE) {
      lines.push("return best;");
      return;
    }
    lines.push(`if (${state.onward} >= best) return best;`);
    const otherwise = state.otherwise;
    // a literal with a `/` never equals a segment; an empty one is never looked up
    const literals = state.literals().filter(([literal]) => literal !== "" && !literal.includes("/"));
    if (otherwise === undefined || depth >= DEEPEST || lines.length + 3 * literals.length > MOST_LINES) {
      lines.push(`return w.walkFrom(${stateRef(state)}, ${depth}, st, best);`);
      return;
    }
    const byFirst = new Map<number, [string, State | null][]>();
    for (const [literal, next] of literals) {
      const first = literal.charCodeAt(0);
      if (!byFirst.has(first)) byFirst.set(first, []);
      byFirst.get(first)!.push([literal, next]);
    }
    if (byFirst.size > 0) {
      lines.push("switch (st < len ? p.charCodeAt(st) : -1) {");
      for (const [first, literals] of byFirst) {
        lines.push(`case ${first}:`);
        for (const [literal, next] of literals) {
          const n = literal.length;
          // UTF-16 code units, as the table walk's string compare reads them
          const same = Array.from({ length: n - 1 }, (_, i) => `p.charCodeAt(st + ${i + 1}) === ${literal.charCodeAt(i + 1)}`);
          // a segment ends at the path's end or at a `/`
          const ends = `(st + ${n} === len || p.charCodeAt(st + ${n}) === 47)`;
          const test = [`st + ${n} <= len`, ...same, ends];
          lines.push(`if (${test.join(" && ")}) {`);
          advance(next, depth, `st + ${n}`);
          lines.push("}");
        }
        lines.push("break;");
      }
      lines.push("}");
    }
    // no literal matched: the segment goes where any other segment goes
    lines.push("{", 'let slash = p.indexOf("/", st);', "if (slash === -1) slash = len;");
    advance(otherwise, depth, "slash");
    lines.push("}");
  };

  /** Code for moving to `next` over the segment `[st, end)` at `depth`. */
  const advance = (next: State | null, depth: number, end: string): void => {
    lines.push(`{ const e = ${end}; B[${2 * depth}] = st; B[${2 * depth + 1}] = e; w.consumed = ${depth + 1};`);
    if (next === null) lines.push("return best;");
    else {
      const endFirst = next.endFirst;
      lines.push(`if (e === len) { w.complete = true; return ${endFirst} < best ? ${endFirst} : best; }`, "st = e + 1; }");
      emit(next, depth + 1);
      return;
    }
    lines.push("}");
  };

  lines.push("w.begin(p);", "const len = p.length;", "const B = w.bounds;", "let best = " + NONE + ";");
  lines.push("let st = len > 0 && p.charCodeAt(0) === 47 ? 1 : 0;");
  lines.push(`if (st >= len) { w.complete = true; return ${start.endFirst}; }`);
  emit(start, 0);
  try {
    const make = new Function("S", `"use strict";\nreturn function walk(p, w) {\n${lines.join("\n")}\n};`) as (states: State[]) => GeneratedWalk;
    return make(states);
  } catch {
    return null;
  }
}
