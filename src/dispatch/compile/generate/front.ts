import { NONE, UNDECIDED } from "../answers.js";
import type { EntriesByMethod, Entry, WalkRecords } from "../run/entry.js";
import { functionOf, type SourceSink } from "./code.js";

/*
 * The generated front of `find` (see generateFront). It only chooses and calls: what it cannot
 * settle goes back to run/find.ts through the four answers index.ts gives it.
 */

/** What the front's code calls on the automaton: the walk's records (for its walks), and its static paths' table. */
export type FrontAutomaton = WalkRecords & { firstStatic(entry: Entry, target: string): number };

/** A lookup by method and request target: what `CompiledRouter.find` does. */
export type Finder<F> = (method: string, url: string) => F | null;

/** What the generated front leaves to `find`'s own code (each for a case generated code does not settle). */
export interface FrontAnswers<F> {
  /** What `find` reports for the static route `route`, which the whole raw target `url` is. */
  readonly staticRoute: (route: number, url: string) => F | null;
  /** What `find` reports for route `route`, chosen by a walk of `url` that left it in the records. */
  readonly fromRecords: (route: number, url: string) => F | null;
  /** `find` for a target that must be cut at its query or decoded first, in `entry`. */
  readonly undecided: (entry: Entry, url: string) => F | null;
  /** `find` as a whole: for a method whose entry has no generated walk. */
  readonly general: Finder<F>;
}

/**
 * `find` as one generated function, where the entries of some methods have generated walks: the
 * method told by `===`, then that entry's static paths and walk called directly, what the walk made
 * returned as it is. The frame it replaces (the entry looked up in lists, its static paths and walk
 * read from it, then tested) cost a small table's lookup 4 of its 40 ns. Methods enter the code
 * through an array, never as code. Null where no entry has a generated walk, or the runtime forbids
 * code generation.
 */
export function generateFront<F>(
  { methods, entries, otherwise }: EntriesByMethod,
  automaton: FrontAutomaton,
  answers: FrontAnswers<F>,
  sink?: SourceSink,
): Finder<F> | null {
  const all = [...entries, otherwise];
  if (all.every((entry) => entry.walk === null)) return null;
  /** The code answering for entry `i`. */
  const answer = (i: number): string => {
    const entry = all[i]!;
    if (entry.walk === null) return "return G(m, u);";
    // the static paths' switch called directly; their table, where there is one, as the automaton reads it
    const known = entry.staticCode !== null ? `C${i}(u)` : entry.statics !== null ? `A.firstStatic(E${i}, u)` : null;
    return [
      known === null ? "" : `const k = ${known}; if (k !== ${NONE}) return S(k, u);`,
      `const r = W${i}(u, A);`,
      // what the walk made, as it is: its handler is null only where a route ends at a guard, and
      // find's program has none (guards are passed through)
      `if (typeof r !== "number") return r;`,
      `return r === ${NONE} ? null : r === ${UNDECIDED} ? U(E${i}, u) : N(r, u);`,
    ].join(" ");
  };
  const constants = [
    ...all.map((_, i) => `const E${i} = E[${i}], W${i} = E${i}.walk, C${i} = E${i}.staticCode;`),
    ...methods.map((_, i) => `const M${i} = M[${i}];`),
  ];
  const branches = methods.map((_, i) => `if (m === M${i}) { ${answer(i)} }`);
  branches.push(`{ ${answer(methods.length)} }`);
  const make = functionOf<
    (
      automaton: FrontAutomaton,
      entries: readonly Entry[],
      methods: readonly string[],
      staticRoute: FrontAnswers<F>["staticRoute"],
      fromRecords: FrontAnswers<F>["fromRecords"],
      undecided: FrontAnswers<F>["undecided"],
      general: Finder<F>,
    ) => Finder<F>
  >(
    ["A", "E", "M", "S", "N", "U", "G"],
    `"use strict";\n${constants.join("\n")}\nreturn function find(m, u) {\n${branches.join("\nelse ")}\n};`,
    sink,
  );
  return make === null
    ? null
    : make(automaton, all, methods, answers.staticRoute, answers.fromRecords, answers.undecided, answers.general);
}
