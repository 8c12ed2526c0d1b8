import type { PathParser } from "../../../parsers/parser.js";
import { Text } from "../../../parsers/text.js";
import { varsShape } from "../../../vars.js";
import { NONE, UNDECIDED } from "../answers.js";
import { handlerOf, variablesOf } from "../compiled-route.js";
import type { WalkContext } from "./walk-context.js";

/*
 * The code with which a generated walk answers (see answers.ts for the values): a route made into
 * what `find` reports, a miss, UNDECIDED, or a hand-over to the table walk; and the stores into the
 * walk's records that a reader of them needs first. Each returns code; only the context's lists
 * (what the code refers to) and flags grow.
 *
 * The code's locals: `p` the path or target, `w` the walk's records (the automaton), `len` the
 * path's length, `st` where the segment being read starts, `s<d>`/`e<d>` the bounds of segment `d`,
 * `B` the records' bounds. Its constants: `R` (run/target.ts `plainFrom`), `N` (NO_REST), and the
 * `S`/`Q`/`F`/`H` constants of walk-context.ts.
 */

/**
 * Code for a miss at the segment starting at `st`, the path going on there: one only when no `%` or
 * `?` from there on could have failed a literal. The segments before it were read plain (a literal's
 * characters, or a captured segment read to its end), so nothing before `st` is scanned again; a
 * miss where the path ended is one at once, and so is one where a literal switch finds no case for
 * a character that is neither (see `trie` in walk-steps.ts).
 */
export const MISS = `return R(p, st) ? ${NONE} : ${UNDECIDED};`;

/**
 * Code returning `route` made by the code (`MadeByCode`): its vars made now from the locals of the
 * segments it consumed, and `rest`, the code for what it leaves.
 */
export function madeAnswer(cx: WalkContext, route: number, rest: string): string {
  const chain = cx.options.chainOf(route);
  const { labels, parsers: byVariable, depths } = variablesOf(chain);
  const values = depths.map((depth, i) => segmentValue(cx, depth, byVariable[i]!));
  const handler = cx.handlerRef(handlerOf(chain.leaf));
  const vars = `${cx.factoryRef(varsShape(labels))}(${values.join(", ")})`;
  return `{ w.chosen = ${route}; return { handler: ${handler}, vars: ${vars}, rest: ${rest} }; }`;
}

/** Code for the value of segment `depth` as `parser` reads it (the route's tests passed). */
function segmentValue(cx: WalkContext, depth: number, parser: PathParser<unknown>): string {
  if (parser === Text) return `p.slice(s${depth}, e${depth})`;
  const inline = cx.parsedInline[depth]?.indexOf(parser) ?? -1;
  if (inline !== -1) return `v${depth}_${inline}`;
  const state = cx.parsedBy[depth];
  const index = state === null || state === undefined ? -1 : state.deciders().indexOf(parser);
  // read when the state's parsers read it; otherwise (the segment was a literal) parsed now
  if (index !== -1) return `${cx.stateRef(state!)}.valueAt(${index})`;
  cx.readsRecords = true;
  const read = `w.value(${depth}, ${cx.parserRef(parser)}, p)`;
  return cx.options.keepRecords ? read : `(${stored(cx, depth + 1, depth)}, ${read})`;
}

/**
 * Code answering `best` before the segment at `st`, `consumed` segments read: that is the start of
 * its rest, or the walk read the segments between, so a `%` or `?` from `st` on could have made a
 * better route fail.
 */
export function answerBefore(cx: WalkContext, best: number, consumed: number): string {
  return best === NONE ? MISS : `{ if (!R(p, st)) return ${UNDECIDED}; ${answerAt(cx, best, consumed, false)} }`;
}

/**
 * Code answering `route` after `consumed` segments (`complete`: the path ended there; NONE only
 * then, a miss that is one). A route leaving a rest has it read from the records, from the end of
 * its last segment: stored first.
 */
export function answerAt(cx: WalkContext, route: number, consumed: number, complete: boolean): string {
  if (route === NONE) return `return ${NONE};`;
  const depth = cx.options.chainOf(route).tests.length;
  return complete && depth === consumed
    ? madeAnswer(cx, route, "N")
    : `{ ${statement(stored(cx, depth, depth - 1))}${madeAnswer(cx, route, `w.restAfter(${depth}, p)`)} }`;
}

/**
 * Code handing over to the table walk from `state` (the code naming it) at `depth`, a segment
 * starting at `start`: it reads raw paths only, so a remainder holding a `%` or `?` leaves the
 * answer undecided; the routes it answers are bound from the records, so the bounds read so far are
 * stored first.
 */
export function handOver(cx: WalkContext, state: string, depth: number, start: string, best: number): string {
  cx.readsRecords = true;
  return `if (!R(p, ${start})) return ${UNDECIDED}; ${statement(stored(cx, depth, 0))}return w.walkFrom(p, ${state}, ${depth}, ${start}, ${best}, -1);`;
}

/**
 * An expression storing in the records the bounds of the segments from `from` to `count` − 1 (from
 * their locals), where the code does not keep them all as it goes (see `WalkOptions.keepRecords`);
 * "" for none.
 */
export function stored(cx: WalkContext, count: number, from: number): string {
  const stores: string[] = [];
  if (!cx.options.keepRecords)
    // (a route of depth 0 asks for depth −1)
    for (let depth = Math.max(from, 0); depth < count; depth++)
      stores.push(`B[${2 * depth}] = s${depth}`, `B[${2 * depth + 1}] = e${depth}`);
  if (stores.length > 0) cx.boundsStored = true;
  return stores.join(", ");
}

/** `expression` as a statement ("" for none). */
export function statement(expression: string): string {
  return expression === "" ? "" : `${expression}; `;
}
