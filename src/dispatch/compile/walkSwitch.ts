import type { PathParser } from "../../parsers/parser.js";
import { Text } from "../../parsers/text.js";
import { varsShape, type Vars, type VarsFactory } from "../../vars.js";
import type { Handler } from "../../tree.js";
import { parseInPlace, readsInPlace } from "../../parsers/in-place.js";
import type { Chain } from "../../chains.js";
import { handlerOf, variablesOf } from "./routes.js";
import { NONE, type State } from "./states.js";
import { NO_REST, plainFrom, rawCanHold, segmentEnd, UNDECIDED } from "./target.js";

/**
 * What a generated walk reads and writes on the automaton: the records its table walk keeps (all of
 * them, or those something will read: see {@link walkSwitch}), and that walk itself, which takes
 * over below the generated states.
 */
export interface WalkRecords {
  /** Starts a walk of a raw path (new walk number, nothing consumed yet). */
  begin(): void;
  readonly bounds: number[];
  consumed: number;
  complete: boolean;
  /**
   * The route whose vars the generated code made and returned (see {@link GeneratedWalk}); written
   * instead of the vars themselves, since storing a new object in the long-lived records would cost
   * a write barrier.
   */
  chosen: number;
  /** Segment `depth` of this walk, of the raw path `text`, as `parser` reads it. */
  value(depth: number, parser: PathParser<unknown>, text: string): unknown;
  /** The table walk of the raw path `path` from `state` at `depth`, with a segment starting at `start`; `best` so far. */
  walkFrom(path: string, state: State, depth: number, start: number, best: number, after: -1): number;
  /** The raw segments of `text` after the first `depth` of this walk (their bounds stored). */
  restAfter(depth: number, text: string): string[];
}

/**
 * A route generated code chose, as `find` reports it: the route's handler (null when it ends at a
 * guard), the vars made as it was chosen, the rest it leaves. Made there, in one object of the
 * shape `find` returns, so that `find` has nothing left to make.
 */
export interface Chosen {
  readonly handler: Handler<never> | null;
  readonly vars: Vars;
  readonly rest: readonly string[];
}

/**
 * The first route for a path or request target, read as it is (see target.ts), from the start: its
 * number (NONE for none), or, where the code itself chose it, the route as {@link Chosen} (its number
 * then in {@link WalkRecords.chosen}); or UNDECIDED (so for a target not starting with `/`, too). A
 * miss (NONE) is one: the code checks what it did not read (see {@link MISS}).
 */
export type GeneratedWalk = (path: string, records: WalkRecords) => number | Chosen;

/**
 * Lines of generated code one automaton may still have (all its methods, walks and static paths
 * together): each generated function warms up on its own, and many large ones made a 516-route
 * table slower than its table walk (notes/issue-12.md, round 2).
 */
export interface CodeBudget {
  lines: number;
}

/**
 * Past this many lines, states are left to the table walk (a long function stays cold longer). A
 * 100-route table needs 940 lines to be generated whole, and was faster so (growth suite, same-process
 * A/B: 120 → 98 ns); tables past 256 routes get no generated code at all (see automaton.ts).
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

/**
 * Code for a miss at the segment starting at `st`, the path going on there: one only when no `%` or
 * `?` from there on could have failed a literal. The segments before it were read plain (a literal's
 * characters, or a captured segment read to its end), so nothing before `st` is scanned again; a
 * miss where the path ended is one at once, and so is one where a literal switch finds no case for
 * a character that is neither (see `trie`).
 */
const MISS = `return R(p, st) ? ${NONE} : ${UNDECIDED};`;

/**
 * True when a path ending right after a segment that leads to `next` has no route (none ends in
 * `next`, none was found before): then only a `/` after the segment is worth going on for.
 */
function goesOn(next: State | null, best: number): boolean {
  return best === NONE && next !== null && next.endFirst === NONE;
}

/** Raised by a generation that may not hand over to fit the budget once it no longer fits. */
class TooLong extends Error {}

/**
 * The first levels of one method's automaton as generated code: each state's literals compared in
 * place, character by character (no `indexOf`, no slice), as a trie of `switch`es, and the next
 * state's code inline. A segment that parsers decide is read in place into locals when only `Int`
 * and `Word` decide it, and else given to its state's parsers, which record their values as the
 * table walk's would; the code goes on in the state their verdicts lead to. States past the depth
 * limit and everything past {@link MOST_LINES} go to the table
 * walk. Where the code itself chooses a route, it also makes what `find` reports of it (handler,
 * vars, rest: {@link Chosen}), the vars with the values read in place and one factory call V8 can
 * inline, where binding them from the records costs a call per value and one shared call site for
 * every label list. Null where the runtime forbids code generation. Literals enter the code as
 * character codes, states, parsers, factories and handlers through arrays, routes as integers:
 * nothing from a route table is code.
 *
 * Records: the code keeps each segment's bounds in locals, and stores them in the walk's records
 * only where something will read them (a hand-over, a route leaving a rest, a value parsed from
 * them), unless `keepRecords` asks for all of them at every segment, as the table walk leaves them:
 * for a guard's routes, whose vars are always bound from the records on top of the guard's.
 */
export function walkSwitch(
  start: State,
  chainOf: (route: number) => Chain,
  keepRecords: boolean,
  budget: CodeBudget = { lines: MOST_LINES },
): GeneratedWalk | null {
  const most = Math.min(MOST_LINES, budget.lines);
  const generateWithin = (lean: boolean): Generated | null => {
    const routes: GeneratedRoutes = { chainOf, keepRecords, lean };
    let code: Generated | null = null;
    for (const deepest of WHOLE_DEPTHS) if ((code = generate(start, routes, most, deepest, true)) !== null) break;
    return code ?? generate(start, routes, most, DEEPEST, false);
  };
  // lean where nothing will read the records, found by generating it: most small tables
  const lean = !keepRecords;
  let code = generateWithin(lean);
  if (lean && code?.readsRecords) code = generateWithin(false);
  if (code === null) return null;
  try {
    const make = new Function(
      "S",
      "Q",
      "F",
      "H",
      "I",
      "R",
      "E",
      "N",
      `"use strict";\n${constants(code)}\nreturn function walk(p, w) {\n${code.lines.join("\n")}\n};`,
    ) as (
      states: State[],
      parsers: PathParser<unknown>[],
      factories: VarsFactory[],
      handlers: (Handler<never> | null)[],
      inPlace: typeof parseInPlace,
      plain: typeof plainFrom,
      end: typeof segmentEnd,
      noRest: readonly string[],
    ) => GeneratedWalk;
    const walk = make(
      code.states,
      code.parsers,
      code.factories,
      code.handlers,
      parseInPlace,
      plainFrom,
      segmentEnd,
      NO_REST,
    );
    budget.lines -= code.lines.length;
    return walk;
  } catch {
    return null;
  }
}

/**
 * What generation needs to know of the routes: each one's tests and leaf, and whether every walk
 * keeps full records; `lean`: whether to leave out what only a reader of the records needs (the new
 * walk number, how many segments were consumed, whether that was all), which most small tables' code
 * never has (no hand-over, no parsers' records, no value parsed again).
 */
interface GeneratedRoutes {
  readonly chainOf: (route: number) => Chain;
  readonly keepRecords: boolean;
  readonly lean: boolean;
}

/** A generated walk's body and the states, parsers, vars factories and handlers it refers to. */
interface Generated {
  readonly lines: readonly string[];
  readonly states: State[];
  readonly parsers: PathParser<unknown>[];
  readonly factories: VarsFactory[];
  readonly handlers: (Handler<never> | null)[];
  /** Whether something the code does reads the walk's records (so its lean form would be wrong). */
  readonly readsRecords: boolean;
}

/**
 * The states, parsers, factories and handlers the code refers to, each as a constant of its own
 * (`S0`, `Q0`, `F0`, `H0`, …) outside the walk: read from the closure, not from a list by index.
 */
function constants(code: Generated): string {
  const named = (prefix: string, list: readonly unknown[]): string[] =>
    list.map((_, i) => `const ${prefix}${i} = ${prefix}[${i}];`);
  return [
    ...named("S", code.states),
    ...named("Q", code.parsers),
    ...named("F", code.factories),
    ...named("H", code.handlers),
  ].join("\n");
}

/** An index in a list of things the generated code refers to, the thing added if new. */
function indexIn<T>(list: T[], item: T): number {
  const index = list.indexOf(item);
  return index !== -1 ? index : list.push(item) - 1;
}

/**
 * The code of a walk from `start`, states at depth `deepest` and below handed over; at most `most`
 * lines. With `whole`, null as soon as it would not fit; without, what does not fit is handed over.
 * Null when nothing but the hand-over would be generated.
 *
 * The first route found so far (`best`) is known while generating: the code is a tree, and along
 * each of its branches the states, and so the routes completing in them, are fixed. So every place
 * the code returns a route knows which one it is.
 */
function generate(
  start: State,
  { chainOf, keepRecords, lean }: GeneratedRoutes,
  most: number,
  deepest: number,
  whole: boolean,
): Generated | null {
  const states: State[] = [];
  const parsers: PathParser<unknown>[] = [];
  const factories: VarsFactory[] = [];
  const handlers: (Handler<never> | null)[] = [];
  const lines: string[] = [];
  /** States whose transitions are generated code. */
  let transitions = 0;
  /** Whether some code reads the walk's records (see {@link GeneratedRoutes.lean}). */
  let readsRecords = false;
  /** Whether some code stores segment bounds in the records (`B`). */
  let boundsStored = keepRecords;
  /** `w.complete = true; `, unless lean. */
  const completed = lean ? "" : "w.complete = true; ";
  /** By depth, along the branch being generated: the state whose parsers read the segment there, or null. */
  const parsedBy: (State | null)[] = [];
  /** By depth, along the branch: the parsers whose values the code keeps in locals (`v<depth>_<i>`), or null. */
  const parsedInline: (readonly PathParser<unknown>[] | null)[] = [];
  const stateRef = (state: State): string => `S${indexIn(states, state)}`;
  const parserRef = (parser: PathParser<unknown>): string => `Q${indexIn(parsers, parser)}`;

  /**
   * Code returning `route` as {@link Chosen}: its vars made now from the locals of the segments it
   * consumed, and `rest`, the code for what it leaves.
   */
  const answer = (route: number, rest: string): string => {
    const chain = chainOf(route);
    const { labels, parsers: byVariable, depths } = variablesOf(chain);
    const values = depths.map((depth, i) => segmentValueCode(depth, byVariable[i]!));
    const handler = `H${indexIn(handlers, handlerOf(chain.leaf))}`;
    const vars = `F${indexIn(factories, varsShape(labels))}(${values.join(", ")})`;
    return `{ w.chosen = ${route}; return { handler: ${handler}, vars: ${vars}, rest: ${rest} }; }`;
  };

  /** Code for the value of segment `depth` as `parser` reads it (the route's tests passed). */
  const segmentValueCode = (depth: number, parser: PathParser<unknown>): string => {
    if (parser === Text) return `p.slice(s${depth}, e${depth})`;
    const inline = parsedInline[depth]?.indexOf(parser) ?? -1;
    if (inline !== -1) return `v${depth}_${inline}`;
    const state = parsedBy[depth];
    const index = state === null || state === undefined ? -1 : state.deciders().indexOf(parser);
    // read when the state's parsers read it; otherwise (the segment was a literal) parsed now
    if (index !== -1) return `${stateRef(state!)}.valueAt(${index})`;
    readsRecords = true;
    const read = `w.value(${depth}, ${parserRef(parser)}, p)`;
    return keepRecords ? read : `(${stored(depth + 1, depth)}, ${read})`;
  };

  /** Code for arriving at `state` (depth `depth`) with a segment starting at `st`, `best` found so far. */
  const emit = (state: State, depth: number, best: number, inline = true): void => {
    // a whole walk stops at once when it cannot fit (its expansion may be far longer)
    if (whole && lines.length > most) throw new TooLong();
    if (state.prefixFirst < best) best = state.prefixFirst;
    // no route still wanting segments comes before the one found
    if (state.onward >= best) {
      lines.push(answerBefore(best, depth));
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
        parsedBy[depth] = null;
        parsedInline[depth] = null;
        // with no route found and only literals going anywhere, a segment that is none is a miss; a
        // switch tells it at once only where every literal is in the switches (a decoded segment may
        // equal one left out)
        const missing = otherwise === null && best === NONE;
        if (literals.length > 0) trie(literals, 0, depth, best, below, missing && literals.length === wanted.length);
        // no literal matched: the segment goes nowhere (a miss, or the route found before it), or where
        // any other segment goes, or where parsers say
        if (otherwise === null) lines.push(answerBefore(best, depth));
        else {
          // the segment's end; a `%` or `?` in it leaves the answer undecided
          lines.push("{", `const slash = E(p, st); if (slash === -1) return ${UNDECIDED};`);
          if (otherwise !== undefined) advance(otherwise, depth, "slash", best, below);
          else parsed(state, depth, best, below);
          lines.push("}");
        }
        if (lines.length <= most) {
          transitions++;
          return;
        }
        if (whole) throw new TooLong();
        lines.length = mark;
      }
    }
    lines.push(handOver(stateRef(state), depth, "st", best));
  };

  /**
   * Code answering `best` before the segment at `st`, `consumed` segments read: that is the start of
   * its rest, or the walk read the segments between, so a `%` or `?` from `st` on could have made a
   * better route fail.
   */
  const answerBefore = (best: number, consumed: number): string =>
    best === NONE ? MISS : `{ if (!R(p, st)) return ${UNDECIDED}; ${answerAt(best, consumed, false)} }`;

  /**
   * Code answering `route` after `consumed` segments (`complete`: the path ended there; NONE only
   * then, a miss that is one). A route leaving a rest has it read from the records, from the end of
   * its last segment: stored first.
   */
  const answerAt = (route: number, consumed: number, complete: boolean): string => {
    if (route === NONE) return `return ${NONE};`;
    const depth = chainOf(route).tests.length;
    return complete && depth === consumed
      ? answer(route, "N")
      : `{ ${statement(stored(depth, depth - 1))}${answer(route, `w.restAfter(${depth}, p)`)} }`;
  };

  /**
   * Code handing over to the table walk from `state` at `depth`, a segment starting at `start`: it
   * reads raw paths only, so a remainder holding a `%` or `?` leaves the answer undecided; the
   * routes it answers are bound from the records, so the bounds read so far are stored first.
   */
  const handOver = (state: string, depth: number, start: string, best: number): string => {
    readsRecords = true;
    return `if (!R(p, ${start})) return ${UNDECIDED}; ${statement(stored(depth, 0))}return w.walkFrom(p, ${state}, ${depth}, ${start}, ${best}, -1);`;
  };

  /**
   * An expression storing in the records the bounds of the segments from `from` to `count` − 1 (from
   * their locals), where the code does not keep them all as it goes (see {@link walkSwitch}); "" for none.
   */
  const stored = (count: number, from: number): string => {
    const stores: string[] = [];
    if (!keepRecords)
      for (let depth = Math.max(from, 0); depth < count; depth++)
        stores.push(`B[${2 * depth}] = s${depth}`, `B[${2 * depth + 1}] = e${depth}`);
    if (stores.length > 0) boundsStored = true;
    return stores.join(", ");
  };
  /** `expression` as a statement ("" for none). */
  const statement = (expression: string): string => (expression === "" ? "" : `${expression}; `);

  /**
   * Code matching the segment at `st` against `literals`, which share their first `k` characters:
   * a switch per character until one literal is left, then its remaining characters compared in
   * place (UTF-16 code units, as the table walk's string compare reads them); a segment ends at the
   * path's end or at a `/`. `missing`: a segment that is no literal is a miss (see {@link MISS}),
   * told at once where a switch finds no case. Characters are read without a test of the path's
   * length first: past its end `charCodeAt` gives NaN, which equals no character code, so only a
   * segment that is a proper prefix of the literals reads past it. V8 then makes those reads calls:
   * after every proper prefix of the classic list's paths had been looked up, the list measured
   * 42–51 ns instead of 35–41 (with a test per character: 44 instead of 42), where the tests cost
   * every lookup (growth suite, 10 routes: 1.8 ns of 38).
   */
  const trie = (
    literals: readonly [string, State | null][],
    k: number,
    depth: number,
    best: number,
    below: boolean,
    missing: boolean,
  ): void => {
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
      advance(next, depth, `st + ${n}`, best, below, goesOn(next, best));
      lines.push("}");
      return;
    }
    const byCharacter = new Map<number, [string, State | null][]>();
    for (const entry of literals) {
      const [literal, next] = entry;
      if (literal.length === k) {
        lines.push(`if (${ends(k, next)}) {`);
        advance(next, depth, `st + ${k}`, best, below, goesOn(next, best));
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
      trie(group, k + 1, depth, best, below, missing);
      lines.push("break;");
    }
    // the segment's first k characters are a literal's (none is `%` or `?`) and the next is no
    // literal's: unless it is `%` or `?`, the segment cut at the query and decoded is none either
    if (missing)
      lines.push(`default: { const c = p.charCodeAt(st + ${k}); if (c !== 37 && c !== 63) return ${NONE}; }`);
    lines.push("}");
  };

  /**
   * Code for the segment `[st, slash)` at `depth` that parsers decide: the state records their
   * values as the table walk's would, then each state their verdicts can lead to, known now, is
   * {@link advance}d to; where some are built only on first use (many parsers), a combination first
   * seen at run time goes to the table walk.
   */
  const parsed = (state: State, depth: number, best: number, below: boolean): void => {
    const deciders = state.deciders();
    if (deciders.every(readsInPlace) && state.parsedTargetsComplete()) {
      inlineParsed(state, deciders, depth, best, below);
      return;
    }
    readsRecords = true;
    lines.push(`const n = ${stateRef(state)}.parsed(p, st, slash, w);`);
    parsedBy[depth] = state;
    for (const target of state.parsedTargets()) {
      lines.push(`if (n === ${target === null ? "null" : stateRef(target)}) {`);
      advance(target, depth, "slash", best, below);
      lines.push("}");
    }
    // every branch above returns: with all the states known, nothing else can come back
    if (state.parsedTargetsComplete()) return;
    lines.push(
      `{ ${record(depth, "slash")} if (n === null) ${answerBefore(best, depth + 1)}`,
      `if (e${depth} === len) { w.complete = true; ${statement(stored(depth + 1, 0))}return n.endFirst < ${best} ? n.endFirst : ${best}; }`,
      `${handOver("n", depth + 1, `e${depth} + 1`, best)} }`,
    );
  };

  /**
   * {@link parsed} for parsers that read the segment in place (`Int`, `Word`), with every state their
   * verdicts lead to built: each parser's value in a local, the state chosen by the mask of verdicts
   * in code. Nothing is recorded on the state: the vars made here read the locals, and a later bind
   * from the records (a hand-over's route) parses the segment again.
   */
  const inlineParsed = (
    state: State,
    deciders: readonly PathParser<unknown>[],
    depth: number,
    best: number,
    below: boolean,
  ): void => {
    const values = deciders.map((parser, i) => `const v${depth}_${i} = I(${parserRef(parser)}, p, st, slash);`);
    const verdicts = deciders.map((_, i) => `(typeof v${depth}_${i} === "number" ? ${1 << i} : 0)`);
    lines.push(...values, `const m = ${verdicts.join(" | ")};`);
    parsedInline[depth] = deciders;
    const masks = new Map<State | null, number[]>();
    for (let mask = 0; mask < 1 << deciders.length; mask++) {
      const target = state.targetOf(mask)!;
      masks.set(target, [...(masks.get(target) ?? []), mask]);
    }
    for (const [target, byTarget] of masks) {
      lines.push(`if (${byTarget.map((mask) => `m === ${mask}`).join(" || ")}) {`);
      advance(target, depth, "slash", best, below);
      lines.push("}");
    }
  };

  /**
   * Code recording the segment `[st, end)` at `depth` as consumed: its bounds in the locals
   * `s<depth>` and `e<depth>` (and in the records when all are kept), how many were consumed.
   */
  const record = (depth: number, end: string): string =>
    `const s${depth} = st, e${depth} = ${end}; ${keepRecords ? `B[${2 * depth}] = s${depth}; B[${2 * depth + 1}] = e${depth}; ` : ""}${lean ? "" : `w.consumed = ${depth + 1};`}`;

  /**
   * Code for moving to `next` over the segment `[st, end)` at `depth`; with `below`, the next
   * state's code inline, else a hand-over to the table walk. `slashFollows`: the code before has
   * seen a `/` after the segment (see {@link goesOn}), so the path does not end there.
   */
  const advance = (
    next: State | null,
    depth: number,
    end: string,
    best: number,
    below: boolean,
    slashFollows = false,
  ): void => {
    if (next === null) {
      // (a segment that leads nowhere is not consumed)
      lines.push(answerBefore(best, depth));
      return;
    }
    const ended = Math.min(next.endFirst, best);
    // (no block: the bounds' locals stay in scope for the code below, which makes the vars)
    const last = slashFollows ? "" : ` if (e${depth} === len) { ${completed}${answerAt(ended, depth + 1, true)} }`;
    lines.push(`${record(depth, end)}${last} st = e${depth} + 1;`);
    emit(next, depth + 1, best, below);
  };

  // a target not starting with `/` (`*`, an absolute URL) is cut to its path first
  lines.push(`if (p.charCodeAt(0) !== 47) return ${UNDECIDED};`);
  if (!lean) lines.push("w.begin();");
  lines.push("const len = p.length;");
  // the records' bounds, where some code stores in them (filled in once the code is known)
  const boundsAt = lines.push("") - 1;
  // (a constant: the offsets of the segments that follow literals fold into constants too)
  lines.push("let st = 1;");
  lines.push(`if (len === 1) { ${completed}${answerAt(start.endFirst, 0, true)} }`);
  try {
    emit(start, 0, NONE);
  } catch (error) {
    if (error instanceof TooLong) return null;
    throw error;
  }
  // nothing generated but the hand-over: the table walk alone does the same for less
  if (boundsStored) lines[boundsAt] = "const B = w.bounds;";
  return transitions === 0 || lines.length > most
    ? null
    : { lines, states, parsers, factories, handlers, readsRecords };
}
