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
  walkFrom(state: State, depth: number, start: number, best: number, after: -1): number;
}

/** The first route for a raw path (no `%`, no query), from the start. */
export type GeneratedWalk = (path: string, records: WalkRecords) => number;

/**
 * Lines of generated code one automaton may still have (all its methods, walks and static paths
 * together): each generated function warms up on its own, and many large ones made a 516-route
 * table slower than its table walk (notes/issue-12.md, round 2).
 */
export interface CodeBudget {
  lines: number;
}

/** Past this many lines, states are left to the table walk (a long function stays cold). */
const MOST_LINES = 300;
/** States at this depth or deeper are left to the table walk (depths 0–2 are generated). */
const DEEPEST = 3;

/**
 * The first levels of one method's automaton as generated code: each state's literals compared in
 * place, character by character (no `indexOf`, no slice), as a trie of `switch`es, and the next
 * state's code inline. A state whose next segment parsers decide, a state at depth
 * {@link DEEPEST} or more, and everything past {@link MOST_LINES} go to the table walk, which records the
 * same things. Null where the runtime forbids code generation. Literals enter the code as character
 * codes, states through an array, routes as integers: nothing from a route table is code.
 */
export function walkSwitch(start: State, budget: CodeBudget = { lines: MOST_LINES }): GeneratedWalk | null {
  const most = Math.min(MOST_LINES, budget.lines);
  const states: State[] = [];
  const lines: string[] = [];
  /** States whose transitions are generated code. */
  let transitions = 0;
  const stateRef = (state: State): string => {
    let index = states.indexOf(state);
    if (index === -1) index = states.push(state) - 1;
    return `S[${index}]`;
  };

  /** Code for arriving at `state` (depth `depth`) with a segment starting at `st`. */
  const emit = (state: State, depth: number, inline = true): void => {
    const prefix = state.prefixFirst === NONE ? "" : `if (${state.prefixFirst} < best) best = ${state.prefixFirst}; `;
    if (state.onward === NONE) {
      lines.push(`${prefix}return best;`);
      return;
    }
    lines.push(`${prefix}if (${state.onward} >= best) return best;`);
    const otherwise = state.otherwise;
    // a literal with a `/` never equals a segment; an empty one is never looked up
    const literals = state.literals().filter(([literal]) => literal !== "" && !literal.includes("/"));
    const mark = lines.length;
    if (otherwise !== undefined && depth < DEEPEST && inline) {
      // the states below inline, else left to the table walk, else this one too
      for (const below of [true, false]) {
        if (literals.length > 0) trie(literals, 0, depth, below);
        // no literal matched: the segment goes where any other segment goes
        lines.push("{", 'let slash = p.indexOf("/", st);', "if (slash === -1) slash = len;");
        advance(otherwise, depth, "slash", below);
        lines.push("}");
        if (lines.length <= most) {
          transitions++;
          return;
        }
        lines.length = mark;
      }
    }
    lines.push(`return w.walkFrom(${stateRef(state)}, ${depth}, st, best, -1);`);
  };

  /**
   * Code matching the segment at `st` against `literals`, which share their first `k` characters:
   * a switch per character until one literal is left, then its remaining characters compared in
   * place (UTF-16 code units, as the table walk's string compare reads them); a segment ends at the
   * path's end or at a `/`.
   */
  const trie = (literals: readonly [string, State | null][], k: number, depth: number, below: boolean): void => {
    const ends = (n: number): string => `(st + ${n} === len || p.charCodeAt(st + ${n}) === 47)`;
    if (literals.length === 1) {
      const [literal, next] = literals[0]!;
      const n = literal.length;
      const same = Array.from({ length: n - k }, (_, i) => `p.charCodeAt(st + ${k + i}) === ${literal.charCodeAt(k + i)}`);
      lines.push(`if (${[`st + ${n} <= len`, ...same, ends(n)].join(" && ")}) {`);
      advance(next, depth, `st + ${n}`, below);
      lines.push("}");
      return;
    }
    const byCharacter = new Map<number, [string, State | null][]>();
    for (const entry of literals) {
      const [literal, next] = entry;
      if (literal.length === k) {
        lines.push(`if (${ends(k)}) {`);
        advance(next, depth, `st + ${k}`, below);
        lines.push("}");
        continue;
      }
      const code = literal.charCodeAt(k);
      if (!byCharacter.has(code)) byCharacter.set(code, []);
      byCharacter.get(code)!.push(entry);
    }
    lines.push(`switch (st + ${k} < len ? p.charCodeAt(st + ${k}) : -1) {`);
    for (const [code, group] of byCharacter) {
      lines.push(`case ${code}:`);
      trie(group, k + 1, depth, below);
      lines.push("break;");
    }
    lines.push("}");
  };

  /**
   * Code for moving to `next` over the segment `[st, end)` at `depth`; with `below`, the next
   * state's code inline, else a hand-over to the table walk.
   */
  const advance = (next: State | null, depth: number, end: string, below: boolean): void => {
    const record = `const e = ${end}; B[${2 * depth}] = st; B[${2 * depth + 1}] = e; w.consumed = ${depth + 1};`;
    if (next === null) {
      lines.push(`{ ${record} return best; }`);
      return;
    }
    const endFirst = next.endFirst;
    lines.push(`{ ${record} if (e === len) { w.complete = true; return ${endFirst} < best ? ${endFirst} : best; } st = e + 1; }`);
    emit(next, depth + 1, below);
  };

  lines.push("w.begin(p);", "const len = p.length;", "const B = w.bounds;", "let best = " + NONE + ";");
  lines.push("let st = len > 0 && p.charCodeAt(0) === 47 ? 1 : 0;");
  lines.push(`if (st >= len) { w.complete = true; return ${start.endFirst}; }`);
  emit(start, 0);
  // nothing generated but the hand-over: the table walk alone does the same for less
  if (transitions === 0 || lines.length > most) return null;
  try {
    const make = new Function("S", `"use strict";\nreturn function walk(p, w) {\n${lines.join("\n")}\n};`) as (states: State[]) => GeneratedWalk;
    const walk = make(states);
    budget.lines -= lines.length;
    return walk;
  } catch {
    return null;
  }
}
