import type { PathParser } from "../../../parsers/parser.js";
import { readsInPlace } from "../../../parsers/in-place.js";
import { NONE, UNDECIDED } from "../answers.js";
import type { State } from "../run/state.js";
import { rawCanHold } from "../run/target.js";
import { answerAt, answerBefore, handOver, stored, statement } from "./walk-answers.js";
import { TooLong, type WalkContext } from "./walk-context.js";

/*
 * The steps that write a walk's code, state by state, each appending to `cx.lines`:
 *
 *   emitState      at a state: its literals (trie), else its captured segment (advance, or
 *                  parsedSegment when parsers decide), else an answer; or a hand-over
 *   trie           a `switch` per character until one literal is left, then its characters
 *   parsedSegment  a segment parsers decide: their verdicts choose the next state
 *   inlineParsed   the same for Int/Word read in place into locals
 *   advance        over a segment to the next state: its bounds recorded, then that state's code
 *
 * The code is a tree: along each branch the states, and so the first route found so far (`best`),
 * are known while writing it, so every place the code returns a route knows which one it is.
 */

/**
 * True when a path ending right after a segment that leads to `next` has no route (none ends in
 * `next`, none was found before): then only a `/` after the segment is worth going on for.
 */
function goesOn(next: State | null, best: number): boolean {
  return best === NONE && next !== null && next.endFirst === NONE;
}

/**
 * Code for arriving at `state` (depth `depth`) with a segment starting at `st`, `best` found so far;
 * `inline`: the states below may be written inline (else this one is handed over).
 */
export function emitState(cx: WalkContext, state: State, depth: number, best: number, inline = true): void {
  const { lines } = cx;
  const { most, deepest, whole } = cx.options;
  // a whole walk stops at once when it cannot fit (its expansion may be far longer)
  if (whole && lines.length > most) throw new TooLong();
  if (state.prefixFirst < best) best = state.prefixFirst;
  // no route still wanting segments comes before the one found
  if (state.onward >= best) {
    lines.push(answerBefore(cx, best, depth));
    return;
  }
  const otherwise = state.otherwise;
  // an empty literal is never looked up, and the others are compared with the raw target
  const wanted = state.literals();
  const literals = wanted.filter(([literal]) => literal !== "" && rawCanHold(literal));
  const mark = lines.length;
  if (depth < deepest && inline) {
    // the states below inline, else left to the table walk, else this one too
    for (const below of whole ? [true] : [true, false]) {
      cx.parsedBy[depth] = null;
      cx.parsedInline[depth] = null;
      // with no route found and only literals going anywhere, a segment that is none is a miss; a
      // switch tells it at once only where every literal is in the switches (a decoded segment may
      // equal one left out)
      const missing = otherwise === null && best === NONE;
      if (literals.length > 0) trie(cx, literals, 0, depth, best, below, missing && literals.length === wanted.length);
      // no literal matched: the segment goes nowhere (a miss, or the route found before it), or where
      // any other segment goes, or where parsers say
      if (otherwise === null) lines.push(answerBefore(cx, best, depth));
      else {
        // the segment's end; a `%` or `?` in it leaves the answer undecided
        lines.push("{", `const slash = E(p, st); if (slash === -1) return ${UNDECIDED};`);
        if (otherwise !== undefined) advance(cx, otherwise, depth, "slash", best, below);
        else parsedSegment(cx, state, depth, best, below);
        lines.push("}");
      }
      if (lines.length <= most) {
        cx.transitions++;
        return;
      }
      if (whole) throw new TooLong();
      lines.length = mark;
    }
  }
  lines.push(handOver(cx, cx.stateRef(state), depth, "st", best));
}

/**
 * Code matching the segment at `st` against `literals`, which share their first `k` characters:
 * a switch per character until one literal is left, then its remaining characters compared in
 * place (UTF-16 code units, as the table walk's string compare reads them); a segment ends at the
 * path's end or at a `/`. `missing`: a segment that is no literal is a miss (see `MISS`),
 * told at once where a switch finds no case. Characters are read without a test of the path's
 * length first: past its end `charCodeAt` gives NaN, which equals no character code, so only a
 * segment that is a proper prefix of the literals reads past it. V8 then makes those reads calls:
 * after every proper prefix of the classic list's paths had been looked up, the list measured
 * 42–51 ns instead of 35–41 (with a test per character: 44 instead of 42), where the tests cost
 * every lookup (growth suite, 10 routes: 1.8 ns of 38).
 */
function trie(
  cx: WalkContext,
  literals: readonly [string, State | null][],
  k: number,
  depth: number,
  best: number,
  below: boolean,
  missing: boolean,
): void {
  const { lines } = cx;
  // where no route answers a path ending after the literal, only a `/` after it goes on (a path
  // ending there falls through to the miss)
  const ends = (n: number, next: State | null): string =>
    goesOn(next, best)
      ? `(st + ${n} < len && p.charCodeAt(st + ${n}) === 47)`
      : `(st + ${n} === len || p.charCodeAt(st + ${n}) === 47)`;
  if (literals.length === 1) {
    const [literal, next] = literals[0]!;
    const n = literal.length;
    const same = Array.from(
      { length: n - k },
      (_, i) => `p.charCodeAt(st + ${k + i}) === ${literal.charCodeAt(k + i)}`,
    );
    lines.push(`if (${[...same, ends(n, next)].join(" && ")}) {`);
    advance(cx, next, depth, `st + ${n}`, best, below, goesOn(next, best));
    lines.push("}");
    return;
  }
  const byCharacter = new Map<number, [string, State | null][]>();
  for (const entry of literals) {
    const [literal, next] = entry;
    if (literal.length === k) {
      lines.push(`if (${ends(k, next)}) {`);
      advance(cx, next, depth, `st + ${k}`, best, below, goesOn(next, best));
      lines.push("}");
      continue;
    }
    const code = literal.charCodeAt(k);
    if (!byCharacter.has(code)) byCharacter.set(code, []);
    byCharacter.get(code)!.push(entry);
  }
  lines.push(`switch (p.charCodeAt(st + ${k})) {`);
  for (const [code, group] of byCharacter) {
    lines.push(`case ${code}:`);
    trie(cx, group, k + 1, depth, best, below, missing);
    lines.push("break;");
  }
  // the segment's first k characters are a literal's (none is `%` or `?`) and the next is no
  // literal's: unless it is `%` or `?`, the segment cut at the query and decoded is none either
  if (missing) lines.push(`default: { const c = p.charCodeAt(st + ${k}); if (c !== 37 && c !== 63) return ${NONE}; }`);
  lines.push("}");
}

/**
 * Code for the segment `[st, slash)` at `depth` that parsers decide: the state records their
 * values as the table walk's would, then each state their verdicts can lead to, known now, is
 * {@link advance}d to; where some are built only on first use (many parsers), a combination first
 * seen at run time goes to the table walk.
 */
function parsedSegment(cx: WalkContext, state: State, depth: number, best: number, below: boolean): void {
  const { lines } = cx;
  const deciders = state.deciders();
  if (deciders.every(readsInPlace) && state.parsedTargetsComplete()) {
    inlineParsed(cx, state, deciders, depth, best, below);
    return;
  }
  cx.readsRecords = true;
  lines.push(`const n = ${cx.stateRef(state)}.parsed(p, st, slash, w);`);
  cx.parsedBy[depth] = state;
  for (const target of state.parsedTargets()) {
    lines.push(`if (n === ${target === null ? "null" : cx.stateRef(target)}) {`);
    advance(cx, target, depth, "slash", best, below);
    lines.push("}");
  }
  // every branch above returns: with all the states known, nothing else can come back
  if (state.parsedTargetsComplete()) return;
  lines.push(
    `{ ${record(cx, depth, "slash")} if (n === null) ${answerBefore(cx, best, depth + 1)}`,
    `if (e${depth} === len) { w.complete = true; ${statement(stored(cx, depth + 1, 0))}return n.endFirst < ${best} ? n.endFirst : ${best}; }`,
    `${handOver(cx, "n", depth + 1, `e${depth} + 1`, best)} }`,
  );
}

/**
 * {@link parsedSegment} for parsers that read the segment in place (`Int`, `Word`), with every state
 * their verdicts lead to built: each parser's value in a local, the state chosen by the mask of
 * verdicts in code. Nothing is recorded on the state: the vars made here read the locals, and a
 * later bind from the records (a hand-over's route) parses the segment again.
 */
function inlineParsed(
  cx: WalkContext,
  state: State,
  deciders: readonly PathParser<unknown>[],
  depth: number,
  best: number,
  below: boolean,
): void {
  const { lines } = cx;
  const values = deciders.map((parser, i) => `const v${depth}_${i} = I(${cx.parserRef(parser)}, p, st, slash);`);
  const verdicts = deciders.map((_, i) => `(typeof v${depth}_${i} === "number" ? ${1 << i} : 0)`);
  lines.push(...values, `const m = ${verdicts.join(" | ")};`);
  cx.parsedInline[depth] = deciders;
  const masks = new Map<State | null, number[]>();
  for (let mask = 0; mask < 1 << deciders.length; mask++) {
    const target = state.targetOf(mask)!;
    masks.set(target, [...(masks.get(target) ?? []), mask]);
  }
  for (const [target, byTarget] of masks) {
    lines.push(`if (${byTarget.map((mask) => `m === ${mask}`).join(" || ")}) {`);
    advance(cx, target, depth, "slash", best, below);
    lines.push("}");
  }
}

/**
 * Code recording the segment `[st, end)` at `depth` as consumed: its bounds in the locals
 * `s<depth>` and `e<depth>` (and in the records when all are kept), how many were consumed.
 */
function record(cx: WalkContext, depth: number, end: string): string {
  const { keepRecords, lean } = cx.options;
  return `const s${depth} = st, e${depth} = ${end}; ${keepRecords ? `B[${2 * depth}] = s${depth}; B[${2 * depth + 1}] = e${depth}; ` : ""}${lean ? "" : `w.consumed = ${depth + 1};`}`;
}

/**
 * Code for moving to `next` over the segment `[st, end)` at `depth`; with `below`, the next
 * state's code inline, else a hand-over to the table walk. `slashFollows`: the code before has
 * seen a `/` after the segment (see {@link goesOn}), so the path does not end there.
 */
function advance(
  cx: WalkContext,
  next: State | null,
  depth: number,
  end: string,
  best: number,
  below: boolean,
  slashFollows = false,
): void {
  if (next === null) {
    // (a segment that leads nowhere is not consumed)
    cx.lines.push(answerBefore(cx, best, depth));
    return;
  }
  const ended = Math.min(next.endFirst, best);
  // (no block: the bounds' locals stay in scope for the code below, which makes the vars)
  const last = slashFollows ? "" : ` if (e${depth} === len) { ${cx.completed}${answerAt(cx, ended, depth + 1, true)} }`;
  cx.lines.push(`${record(cx, depth, end)}${last} st = e${depth} + 1;`);
  emitState(cx, next, depth + 1, best, below);
}
