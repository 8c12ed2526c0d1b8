import type { Chain } from "../../../chains.js";
import type { PathParser } from "../../../parsers/parser.js";
import { parseInPlace } from "../../../parsers/in-place.js";
import type { Handler } from "../../../tree.js";
import type { VarsFactory } from "../../../vars.js";
import { NO_REST, NONE, UNDECIDED } from "../answers.js";
import type { GeneratedWalk } from "../run/entry.js";
import type { State } from "../run/state.js";
import { plainFrom, segmentEnd } from "../run/target.js";
import { type CodeBudget, codeGenerationAllowed, functionOf, type SourceSink } from "./code.js";
import { answerAt } from "./walk-answers.js";
import { TooLong, WalkContext, type WalkOptions } from "./walk-context.js";
import { emitState } from "./walk-steps.js";

/**
 * Past this many lines, states are left to the table walk (a long function stays cold longer). A
 * 100-route table needs 940 lines to be generated whole, and was faster so (growth suite, same-process
 * A/B: 120 → 98 ns); tables past 256 routes get no generated code at all (see build/automaton.ts).
 */
const MOST_LINES = 1000;
/**
 * Depth limits tried in turn, deepest first: the first whose whole code fits the budget is taken,
 * so a small table is generated to its leaves (growth suite, 10 routes: 116 → 86 ns) without a
 * larger one losing its deeper levels to the budget (100 routes with a 300-line budget, all depths
 * tried without the whole-walk rule: 122 → 214 ns).
 */
const WHOLE_DEPTHS = [16, 8, 5, 4];
/** When no limit above fits: depths 0–2, with hand-overs to the table walk where the budget runs out. */
const DEEPEST = 3;

/** The parameters of the function that makes a walk: what the walk's code refers to (see {@link WalkMaker}). */
const MAKER_PARAMETERS = ["S", "Q", "F", "H", "I", "R", "E", "N"];

/**
 * The first levels of one method's automaton as generated code: each state's literals compared in
 * place, character by character (no `indexOf`, no slice), as a trie of `switch`es, and the next
 * state's code inline. A segment that parsers decide is read in place into locals when only `Int`
 * and `Word` decide it, and else given to its state's parsers, which record their values as the
 * table walk's would; the code goes on in the state their verdicts lead to. States past the depth
 * limit and everything past {@link MOST_LINES} go to the table walk. Where the code itself chooses a
 * route, it also makes what `find` reports of it (handler, vars, rest: `MadeByCode`, answers.ts), the
 * vars with the values read in place and one factory call V8 can inline, where binding them from the
 * records costs a call per value and one shared call site for every label list. Null where the
 * runtime forbids code generation. Literals enter the code as character codes, states, parsers,
 * factories and handlers through arrays, routes as integers: nothing from a route table is code.
 *
 * Records: the code keeps each segment's bounds in locals, and stores them in the walk's records
 * only where something will read them (a hand-over, a route leaving a rest, a value parsed from
 * them), unless `keepRecords` asks for all of them at every segment, as the table walk leaves them:
 * for a guard's routes, whose vars are always bound from the records on top of the guard's.
 */
export function generateWalk(
  start: State,
  chainOf: (route: number) => Chain,
  keepRecords: boolean,
  budget: CodeBudget = { lines: MOST_LINES },
  sink?: SourceSink,
): GeneratedWalk | null {
  if (!codeGenerationAllowed()) return null;
  const most = Math.min(MOST_LINES, budget.lines);
  const writeWithin = (lean: boolean): WalkContext | null => {
    let code: WalkContext | null = null;
    for (const deepest of WHOLE_DEPTHS)
      if ((code = writeWalk(start, { chainOf, keepRecords, lean, most, deepest, whole: true })) !== null) break;
    return code ?? writeWalk(start, { chainOf, keepRecords, lean, most, deepest: DEEPEST, whole: false });
  };
  // lean where nothing will read the records, found by writing it: most small tables
  const lean = !keepRecords;
  let code = writeWithin(lean);
  if (lean && code?.readsRecords) code = writeWithin(false);
  if (code === null) return null;
  const make = functionOf<WalkMaker>(
    MAKER_PARAMETERS,
    `"use strict";\n${constants(code)}\nreturn function walk(p, w) {\n${code.lines.join("\n")}\n};`,
    sink,
  );
  if (make === null) return null;
  budget.lines -= code.lines.length;
  return make(code.states, code.parsers, code.factories, code.handlers, parseInPlace, plainFrom, segmentEnd, NO_REST);
}

/** The function made of a walk's source: given what the code refers to (by {@link MAKER_PARAMETERS}), the walk. */
type WalkMaker = (
  states: State[],
  parsers: PathParser<unknown>[],
  factories: VarsFactory[],
  handlers: (Handler<never> | null)[],
  inPlace: typeof parseInPlace,
  plain: typeof plainFrom,
  end: typeof segmentEnd,
  noRest: readonly string[],
) => GeneratedWalk;

/**
 * The states, parsers, factories and handlers the code refers to, each as a constant of its own
 * (`S0`, `Q0`, `F0`, `H0`, …) outside the walk: read from the closure, not from a list by index.
 */
function constants(code: WalkContext): string {
  const named = (prefix: string, list: readonly unknown[]): string[] =>
    list.map((_, i) => `const ${prefix}${i} = ${prefix}[${i}];`);
  return [
    ...named("S", code.states),
    ...named("Q", code.parsers),
    ...named("F", code.factories),
    ...named("H", code.handlers),
  ].join("\n");
}

/**
 * The code of a walk from `start`, as `options` ask (states at `deepest` and below handed over, at
 * most `most` lines; with `whole`, null as soon as it would not fit, without, what does not fit is
 * handed over). Null when nothing but the hand-over would be written.
 */
function writeWalk(start: State, options: WalkOptions): WalkContext | null {
  const cx = new WalkContext(options);
  const { lines } = cx;
  // a target not starting with `/` (`*`, an absolute URL) is cut to its path first
  lines.push(`if (p.charCodeAt(0) !== 47) return ${UNDECIDED};`);
  if (!options.lean) lines.push("w.begin();");
  lines.push("const len = p.length;");
  // the records' bounds, where some code stores in them (filled in once the code is known)
  const boundsAt = lines.push("") - 1;
  // (a constant: the offsets of the segments that follow literals fold into constants too)
  lines.push("let st = 1;");
  lines.push(`if (len === 1) { ${cx.completed}${answerAt(cx, start.endFirst, 0, true)} }`);
  try {
    emitState(cx, start, 0, NONE);
  } catch (error) {
    if (error instanceof TooLong) return null;
    throw error;
  }
  if (cx.boundsStored) lines[boundsAt] = "const B = w.bounds;";
  // nothing generated but the hand-over: the table walk alone does the same for less
  return cx.transitions === 0 || lines.length > options.most ? null : cx;
}
