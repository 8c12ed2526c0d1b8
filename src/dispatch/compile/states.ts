import { NoParse, parseSegment, type PathParser } from "../../parsers/parser.js";
import { Text } from "../../parsers/text.js";
import { parseInPlace, readsInPlace } from "../../parsers/in-place.js";
import type { Chain } from "../../chains.js";
import { plainFrom, plainSegmentEnd, rawCanHold } from "./target.js";

/*
 * The routes still alive after `depth` segments, as one state of a deterministic automaton (the
 * subset construction over segments). Routes are numbered in first-match order, so "the first route
 * that matches" is the smallest number that completes. A state knows which routes complete in it and
 * where each possible next segment leads: literal segments through a hash table, any other segment
 * through the verdicts of the parsers of the typed routes, so the routes are never scanned one by one.
 * Parsers must be pure functions of the segment: a literal's verdict is taken once, here.
 */

/** What a walk records when parsers read a segment: the state, by depth, and the walk's number. */
export interface Walk {
  readonly parsedAt: (State | null)[];
  readonly number: number;
}

/** A walk of a raw path, which also learns where each segment ends as it is matched. */
export interface PathWalk extends Walk {
  end: number;
  /**
   * True when the text from the segment being read on is known to hold no `%` and no `?`: always for
   * a path cut at its query and with no `%`; for a request target read as it is, once a captured
   * segment had the rest of it checked (see {@link checkedEnd}: every segment before was read plain).
   */
  restPlain: boolean;
}

/**
 * A captured segment this short is checked for `%` and `?` character by character; a longer one by
 * a native search of the whole rest of the target, once per walk (GitHub's captures are ten
 * characters or so, and a character loop costs ~2 ns a character against ~7 ns for a search). Each
 * state reads the first characters one by one only while its captures are this short.
 */
const CHECKED_BY_LOOP = 4;

/** "No route": larger than any route number, and a terminator for the ascending lists below. */
export const NONE = 0x7fffffff;

/** Typed-segment parsers beyond this many at one state get their transitions built on first use. */
const EAGER_PARSERS = 4;

/*
 * Shared by every state that has no parsers to decide its next state, and never written to (only
 * such a state's walk does). Not frozen: a frozen list has a map of its own, which would make the
 * walk's reads of these fields see two kinds of list.
 */
const NO_PARSERS: readonly PathParser<unknown>[] = [];
const NOTHING: never[] = [];

/** One state: the routes alive after `depth` segments, where they complete, and where each segment leads. */
export class State {
  /** The first route that completes here even when segments remain; NONE if none does. */
  readonly prefixFirst: number;
  /** The first route that completes here when no segment remains; NONE if none does. */
  readonly endFirst: number;
  /** All routes (ascending, NONE-terminated) that complete here even when segments remain. */
  readonly prefix: readonly number[];
  /** All routes (ascending, NONE-terminated) that complete here when no segment remains. */
  readonly end: readonly number[];
  /** The smallest route that needs more segments than this state has seen; NONE if none does. */
  readonly onward: number;
  /**
   * The literals wanted next that a raw segment can be, open-addressed by their first three characters,
   * each entry `[literal, next state, first two characters, third character]`. The key is read from
   * the request path in place, before the segment's end is known: a character at or after a `/`
   * (or the end) reads as a `/`, so the key of a literal shorter than three ends in `/`s, and a
   * segment whose key equals a literal's is that literal up to its third character. A longer one is
   * then told by its end and one native compare; a raw path's segment needs no `indexOf` unless no
   * literal matches.
   */
  private table: (string | State | number | null | undefined)[] | null = null;
  private tableMask = 0;
  /** 32 − log2(slots): the top bits of the mixed key pick the slot. */
  private tableShift = 32;
  /** When exactly one literal that a raw segment can be is wanted next: it and its state, compared without a table. */
  private only: string | null = null;
  private onlyNext: State | null = null;
  /**
   * Literals with a `/`, `%` or `?` (only a decoded segment ever equals them: see `rawCanHold`) and
   * where each leads: only the walk of decoded segments looks here. Null when there are none.
   */
  private decodedOnly: Map<string, State | null> | null = null;
  /** The next state for a segment that is no literal here, when no parser has a say (`undefined` when one has). */
  private other: State | null | undefined = null;
  // (the fields below start shared and empty: most states have no parsers to decide)
  /** The parsers (other than `Text`, which accepts anything) of routes wanting a typed segment here. */
  private parsers: readonly PathParser<unknown>[] = NO_PARSERS;
  /** The next state for a segment that is no literal here, by the mask of `parsers` that accept it. */
  private byMask: (State | null | undefined)[] = NOTHING;
  /** Builds the states of `byMask` not built yet; null when a few parsers had them all built at once. */
  private build: ((mask: number) => State | null) | null = null;
  /**
   * How many characters of a segment captured here, of a request target read as it is, are read one
   * by one (see {@link checkedEnd}): {@link CHECKED_BY_LOOP} while the last one was that short, else 0.
   */
  private captureLoop = CHECKED_BY_LOOP;
  /** What the last {@link typed} call read: in which walk, and the segment's value by each of `parsers`. */
  walk = -1;
  private values: unknown[] = NOTHING;

  /** `depth`: segments consumed when the walk is here. */
  constructor(
    readonly depth: number,
    prefix: readonly number[],
    end: readonly number[],
    onward: number,
  ) {
    this.prefix = prefix;
    this.end = end;
    this.prefixFirst = prefix[0]!;
    this.endFirst = end[0]!;
    this.onward = onward;
  }

  /** Sets where each literal (non-empty) leads: `literals[i]` to `states[i]`. */
  setLiterals(literals: readonly string[], states: readonly (State | null)[]): void {
    const keyed: number[] = [];
    for (let i = 0; i < literals.length; i++) {
      if (rawCanHold(literals[i]!)) keyed.push(i);
      else (this.decodedOnly ??= new Map()).set(literals[i]!, states[i]!);
    }
    if (keyed.length === 1) {
      this.only = literals[keyed[0]!]!;
      this.onlyNext = states[keyed[0]!]!;
    }
    if (keyed.length < 2) return;
    // at most half full
    let bits = 1;
    while (1 << bits < keyed.length * 2) bits++;
    const table = new Array<string | State | number | null | undefined>(4 << bits).fill(undefined);
    this.tableMask = (4 << bits) - 1;
    this.tableShift = 32 - bits;
    for (const i of keyed) {
      const literal = literals[i]!;
      const c0 = keyCode(literal, 0);
      const c1 = keyCode(literal, 1);
      const c2 = keyCode(literal, 2);
      let slot = this.slotOf(c0, c1, c2);
      while (table[slot] !== undefined) slot = (slot + 4) & this.tableMask;
      table[slot] = literal;
      table[slot + 1] = states[i]!;
      table[slot + 2] = (c0 << 16) | c1;
      table[slot + 3] = c2;
    }
    this.table = table;
  }

  /**
   * Sets where a segment that is no literal here leads. With no `parsers` (other than `Text`) to
   * decide, that is one state, `next`; with some, `next(mask)` is the state for the segments that
   * exactly the `parsers` in `mask` (bit i for `parsers[i]`) accept. A few parsers get all their
   * states now; more get each state on first use, since most combinations never occur.
   */
  setOthers(parsers: readonly PathParser<unknown>[], next: State | null | ((mask: number) => State | null)): void {
    if (typeof next !== "function") {
      this.other = next;
      return;
    }
    if (parsers.length > 30)
      throw new RangeError("compile: more than 30 different parsers compete for one path segment");
    this.other = undefined;
    this.parsers = parsers;
    this.byMask = new Array<State | null | undefined>(1 << parsers.length).fill(undefined);
    this.values = new Array<unknown>(parsers.length).fill(NoParse);
    if (parsers.length > EAGER_PARSERS) this.build = next;
    else for (let mask = 0; mask < this.byMask.length; mask++) this.byMask[mask] = next(mask);
  }

  /** The literals wanted next and where each leads (empty when none is). */
  literals(): [string, State | null][] {
    const out: [string, State | null][] = this.only !== null ? [[this.only, this.onlyNext]] : [];
    const table = this.table ?? [];
    for (let slot = 0; slot < table.length; slot += 4)
      if (table[slot] !== undefined) out.push([table[slot] as string, table[slot + 1] as State | null]);
    if (this.decodedOnly !== null) out.push(...this.decodedOnly);
    return out;
  }

  /** Where a segment that is no literal here leads when no parser has a say; `undefined` when parsers decide. */
  get otherwise(): State | null | undefined {
    return this.other;
  }

  /**
   * Where the segment of the raw path or request target `text` starting at `start` leads, its end
   * then in `walk.end`: a literal is matched where it lies, the end looked for only when none does
   * and another segment can go somewhere. Where `text` is not known to be plain (see
   * {@link PathWalk.restPlain}), a segment holding a `%` or `?` leads nowhere: it must be decoded, or
   * the path ends in it. When parsers decide, the walk records this state, whose {@link valueFor}
   * then gives their values without parsing again.
   */
  nextInPath(text: string, start: number, walk: PathWalk): State | null {
    // (in small parts: V8 inlines each into the walk, and would not inline the whole)
    const matched =
      this.only !== null
        ? this.onlyAt(text, start, walk)
        : this.table !== null
          ? this.literalAt(text, start, walk)
          : undefined;
    if (matched !== undefined) return matched;
    // no other segment goes anywhere from here: a miss, whatever the segment holds (its end unread)
    if (this.other === null) return null;
    const end = walk.restPlain ? plainSegmentEnd(text, start) : this.capturedEnd(text, start, walk);
    // a segment to decode, or the query, is not read here: the walk stops as at a miss
    if (end === -1) return null;
    walk.end = end;
    if (this.other !== undefined) return this.other;
    return this.parsed(text, start, end, walk);
  }

  /** {@link checkedEnd} of a segment captured here, its first characters read one by one while this state's captures are short. */
  private capturedEnd(text: string, start: number, walk: PathWalk): number {
    const loop = this.captureLoop;
    const end = checkedEnd(text, start, walk, loop);
    if (end !== -1) {
      const fits = end - start <= CHECKED_BY_LOOP ? CHECKED_BY_LOOP : 0;
      if (fits !== loop) this.captureLoop = fits;
    }
    return end;
  }

  /** {@link nextInPath} for the one literal wanted: where it leads when it is the segment, else undefined. */
  private onlyAt(text: string, start: number, walk: PathWalk): State | null | undefined {
    const only = this.only!;
    const end = start + only.length;
    if (!endsAt(text, end) || text.slice(start, end) !== only) return undefined;
    walk.end = end;
    return this.onlyNext;
  }

  /** {@link nextInPath} for the literal table: where the literal that is the segment leads, else undefined. */
  private literalAt(text: string, start: number, walk: PathWalk): State | null | undefined {
    const table = this.table!;
    const length = text.length;
    // the key: three characters, `/` from the segment's end on
    const c0 = start < length ? text.charCodeAt(start) : 47;
    const c1 = c0 === 47 || start + 1 >= length ? 47 : text.charCodeAt(start + 1);
    const c2 = c1 === 47 || start + 2 >= length ? 47 : text.charCodeAt(start + 2);
    const k01 = (c0 << 16) | c1;
    for (let slot = this.slotOf(c0, c1, c2); ; slot = (slot + 4) & this.tableMask) {
      const literal = table[slot] as string | undefined;
      if (literal === undefined) return undefined;
      if (table[slot + 2] !== k01 || table[slot + 3] !== c2) continue;
      // shorter than three, the key saw its end; of three, it saw the characters; else a native
      // compare (a character loop, its length varying from request to request, cost more)
      const end = start + literal.length;
      if (literal.length < 3 || (endsAt(text, end) && (literal.length === 3 || text.slice(start, end) === literal))) {
        walk.end = end;
        return table[slot + 1] as State | null;
      }
    }
  }

  /**
   * Where the decoded segment `segment` leads (it may hold a `/`, from a `%2F`). When parsers
   * decide, the walk records this state, as {@link nextInPath}.
   */
  next(segment: string, walk: Walk): State | null {
    const length = segment.length;
    if (this.only !== null) {
      if (segment === this.only) return this.onlyNext;
    } else if (this.table !== null && length > 0) {
      const table = this.table;
      // (a decoded segment may hold a `/`, from a `%2F`: no literal in the table does, so the key
      // is taken as a literal's, and such a segment matches none of them)
      const c0 = keyCode(segment, 0);
      const c1 = keyCode(segment, 1);
      const c2 = keyCode(segment, 2);
      const k01 = (c0 << 16) | c1;
      for (let slot = this.slotOf(c0, c1, c2); ; slot = (slot + 4) & this.tableMask) {
        const literal = table[slot] as string | undefined;
        if (literal === undefined) break;
        if (table[slot + 2] === k01 && table[slot + 3] === c2 && literal === segment)
          return table[slot + 1] as State | null;
      }
    }
    const decodedOnly = this.decodedOnly;
    if (decodedOnly !== null) {
      const next = decodedOnly.get(segment);
      if (next !== undefined) return next;
    }
    if (this.other !== undefined) return this.other;
    return this.parsed(segment, 0, length, walk);
  }

  /**
   * Where the segment `text[start, end)` leads when it is no literal here and parsers decide
   * ({@link otherwise} is `undefined`). The walk records this state, whose {@link valueFor} then
   * gives the parsers' values without parsing again.
   */
  parsed(text: string, start: number, end: number, walk: Walk): State | null {
    walk.parsedAt[this.depth] = this;
    this.walk = walk.number;
    return this.typed(text, start, end);
  }

  /** The states {@link parsed} can lead to that are built already (all of them for a few parsers), and null. */
  parsedTargets(): (State | null)[] {
    return [...new Set(this.byMask.filter((next) => next !== undefined))];
  }

  /** The parsers that decide where a segment that is no literal here leads (bit i of a mask is parser i). */
  deciders(): readonly PathParser<unknown>[] {
    return this.parsers;
  }

  /** Where a segment that exactly the deciders in `mask` accept leads; undefined while not built. */
  targetOf(mask: number): State | null | undefined {
    return this.byMask[mask];
  }

  /** True when {@link parsedTargets} are all the states {@link parsed} can lead to. */
  parsedTargetsComplete(): boolean {
    return !this.byMask.includes(undefined);
  }

  /**
   * The value of the segment the last {@link next} call gave to parsers, as `parser` read it;
   * NoParse when `parser` is not one of them (`Text` never is) or did not accept it.
   */
  valueFor(parser: PathParser<unknown>): unknown {
    const parsers = this.parsers;
    for (let i = 0; i < parsers.length; i++) if (parsers[i] === parser) return this.values[i];
    return NoParse;
  }

  /** The value of the segment the last {@link parsed} call read, as the parser at `index` of {@link deciders} read it. */
  valueAt(index: number): unknown {
    return this.values[index];
  }

  /** Where the segment `text[start, end)`, no literal here, leads, when parsers decide. */
  private typed(text: string, start: number, end: number): State | null {
    const parsers = this.parsers;
    const values = this.values;
    let mask = 0;
    // the segment as a string, made once, only for parsers that cannot read it in place
    let piece: string | null = null;
    for (let i = 0; i < parsers.length; i++) {
      const parser = parsers[i]!;
      const value = (values[i] = readsInPlace(parser)
        ? parseInPlace(parser, text, start, end)
        : parseSegment(parser, (piece ??= text.slice(start, end))));
      if (value !== NoParse) mask |= 1 << i;
    }
    let next = this.byMask[mask];
    if (next === undefined) next = this.byMask[mask] = this.build!(mask);
    return next;
  }

  /** The slot of a key of three characters. */
  private slotOf(c0: number, c1: number, c2: number): number {
    // a multiplicative mix: the low bits alone put keys like r0…r9 (31² apart) all in one slot
    return (Math.imul((c0 * 31 + c1) * 31 + c2, 0x9e3779b1) >>> this.tableShift) << 2;
  }
}

/** Character `at` of a whole literal or segment `text` for its key, `/` past its end. */
function keyCode(text: string, at: number): number {
  return at < text.length ? text.charCodeAt(at) : 47 /* / */;
}

/**
 * Where the segment of the request target `text` starting at `start` ends, or -1 when a `%` or `?`
 * is in it: read character by character up to `loop`; past that, the rest of the target is checked
 * at once (which `walk` then knows to be plain from here on) and the end found natively. (Generated code's
 * `segmentEnd` reads a segment the same way; one function for both made the table walk slower,
 * growth 1,000 routes 1.06–1.08× in 7 child rounds.)
 */
function checkedEnd(text: string, start: number, walk: PathWalk, loop: number): number {
  const length = text.length;
  const stop = length - start > loop ? start + loop : length;
  for (let at = start; at < stop; at++) {
    const c = text.charCodeAt(at);
    if (c === 47 /* / */) return at;
    if (c === 37 /* % */ || c === 63 /* ? */) return -1;
  }
  if (stop === length) return length;
  if (!plainFrom(text, stop)) return -1;
  walk.restPlain = true;
  return plainSegmentEnd(text, stop);
}

/** True when a segment of the raw path `text` can end at `end`: the path ends there, or a `/` is there. */
function endsAt(text: string, end: number): boolean {
  return end === text.length || (end < text.length && text.charCodeAt(end) === 47) /* / */;
}

/** The list of no route at all (NONE-terminated), shared: most states' `prefix`, many states' `end` (not frozen, as above). */
const NO_ROUTES: readonly number[] = [NONE];

/** A state still to link: its routes that want one more segment; the next one to link after it. */
interface Unlinked {
  readonly state: State;
  readonly onward: readonly number[];
  readonly below: Unlinked | null;
}

/** Builds the states of one route set; equal route sets at equal depths share a state. */
export class StateBuilder {
  private readonly memo = new Map<string, State>();
  /** The states of one route alone (most states: a route's own tail), by `depth × routes + route`: no key to build. */
  private readonly alone = new Map<number, State>();
  private readonly verdicts = new Map<PathParser<unknown>, Map<string, boolean>>();
  /**
   * States made but not linked yet, each with the routes that want one more segment: states are
   * linked in turn by one loop, not by recursion (deep recursion here made large compiled code).
   */
  private unlinked: Unlinked | null = null;
  private linking = false;

  constructor(private readonly chains: readonly Chain[]) {}

  /** The state where the routes `ids` (ascending) are alive after `depth` segments, linked, and every state it leads to. */
  state(depth: number, ids: readonly number[]): State | null {
    const state = this.find(depth, ids);
    // called while linking (a state's mask states): the loop below is running already
    if (this.linking) return state;
    this.linking = true;
    try {
      for (let next = this.unlinked; next !== null; next = this.unlinked) {
        this.unlinked = next.below;
        this.link(next.state, next.onward);
      }
    } finally {
      this.linking = false;
    }
    return state;
  }

  /** The state of `ids` after `depth` segments, made (and left to link) when there is none yet. */
  private find(depth: number, ids: readonly number[]): State | null {
    if (ids.length === 0) return null;
    if (ids.length > 1) return this.findMany(depth, ids);
    const key = depth * this.chains.length + ids[0]!;
    let state = this.alone.get(key);
    if (state === undefined) this.alone.set(key, (state = this.buildOne(depth, ids)));
    return state;
  }

  /** {@link find} for two routes or more (fewer states, found by a key spelling the routes). */
  private findMany(depth: number, ids: readonly number[]): State {
    const key = `${depth}:${ids.join(",")}`;
    let state = this.memo.get(key);
    if (state === undefined) this.memo.set(key, (state = this.build(depth, ids)));
    return state;
  }

  private build(depth: number, ids: readonly number[]): State {
    let prefix: number[] | null = null;
    let end: number[] | null = null;
    let onward: number[] | null = null;
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const chain = this.chains[id]!;
      if (chain.tests.length > depth) (onward ??= []).push(id);
      else {
        (end ??= []).push(id);
        if (!chain.exact) (prefix ??= []).push(id);
      }
    }
    const state = new State(depth, terminated(prefix), terminated(end), onward !== null ? onward[0]! : NONE);
    if (onward !== null) this.toLink(state, onward);
    return state;
  }

  private toLink(state: State, onward: readonly number[]): void {
    this.unlinked = { state, onward, below: this.unlinked };
  }

  /** {@link build} for one route (`alone`, a list of it): the most common state, made without sorting routes into lists. */
  private buildOne(depth: number, alone: readonly number[]): State {
    const id = alone[0]!;
    const chain = this.chains[id]!;
    if (chain.tests.length <= depth) {
      const end = [id, NONE];
      return new State(depth, chain.exact ? NO_ROUTES : end, end, NONE);
    }
    const state = new State(depth, NO_ROUTES, NO_ROUTES, id);
    this.toLink(state, alone);
    return state;
  }

  /** Sets the transitions of `state` for the routes `onward` that want one more segment. */
  private link(state: State, onward: readonly number[]): void {
    const depth = state.depth;
    if (onward.length === 1) {
      this.linkOne(state, depth, onward);
      return;
    }
    // the literals wanted next, in order, each with its routes; the routes wanting a typed segment
    const literals: string[] = [];
    const groups: number[][] = [];
    const groupOf = new Map<string, number[]>();
    const typed: number[] = [];
    for (let k = 0; k < onward.length; k++) {
      const id = onward[k]!;
      const test = this.chains[id]!.tests[depth]!;
      if (typeof test !== "string") typed.push(id);
      else {
        const ids = groupOf.get(test);
        if (ids !== undefined) ids.push(id);
        else {
          const group = [id];
          groupOf.set(test, group);
          literals.push(test);
          groups.push(group);
        }
      }
    }
    if (typed.length > 0 && literals.length > 0) this.followLiterals(depth, typed, literals, groups);
    if (literals.length > 0) this.linkLiterals(state, depth, literals, groups);
    // with no typed route, every other segment leads nowhere, as a new state has it
    if (typed.length > 0) this.linkOthers(state, depth, typed);
  }

  /** Sets where each literal leads: to the state of its routes. */
  private linkLiterals(
    state: State,
    depth: number,
    literals: readonly string[],
    groups: readonly (readonly number[])[],
  ): void {
    const states = new Array<State | null>(literals.length);
    for (let i = 0; i < literals.length; i++) states[i] = this.find(depth + 1, groups[i]!);
    state.setLiterals(literals, states);
  }

  /** A typed route also follows every literal its parser accepts: it joins that literal's routes, in route order. */
  private followLiterals(
    depth: number,
    typed: readonly number[],
    literals: readonly string[],
    groups: number[][],
  ): void {
    for (let i = 0; i < literals.length; i++) {
      const ids = groups[i]!;
      for (let k = 0; k < typed.length; k++) {
        const id = typed[k]!;
        if (this.accepts(this.parserAt(id, depth), literals[i]!)) insertAscending(ids, id);
      }
    }
  }

  /** Sets where a segment that is no literal leads, for the routes `typed` that want a typed segment. */
  private linkOthers(state: State, depth: number, typed: readonly number[]): void {
    // the parsers that decide (`Text` accepts every segment)
    const parsers: PathParser<unknown>[] = [];
    for (const id of typed) {
      const parser = this.parserAt(id, depth);
      if (parser !== Text && !parsers.includes(parser)) parsers.push(parser);
    }
    if (parsers.length === 0) {
      state.setOthers(NO_PARSERS, this.find(depth + 1, typed));
      return;
    }
    state.setOthers(parsers, (mask) =>
      this.state(
        depth + 1,
        typed.filter((id) => {
          const parser = this.parserAt(id, depth);
          return parser === Text || (mask & (1 << parsers.indexOf(parser))) !== 0;
        }),
      ),
    );
  }

  /** {@link link} for one route (`alone`, a list of it) that wants one more segment: where it goes, and nowhere else. */
  private linkOne(state: State, depth: number, alone: readonly number[]): void {
    const test = this.chains[alone[0]!]!.tests[depth]!;
    const next = this.find(depth + 1, alone);
    if (typeof test === "string") state.setLiterals([test], [next]);
    else if (test.parser === Text) state.setOthers(NO_PARSERS, next);
    else state.setOthers([test.parser], (mask) => (mask === 0 ? null : next));
  }

  private parserAt(id: number, depth: number): PathParser<unknown> {
    return (this.chains[id]!.tests[depth] as { readonly parser: PathParser<unknown> }).parser;
  }

  private accepts(parser: PathParser<unknown>, literal: string): boolean {
    let byLiteral = this.verdicts.get(parser);
    if (byLiteral === undefined) this.verdicts.set(parser, (byLiteral = new Map()));
    let verdict = byLiteral.get(literal);
    if (verdict === undefined) byLiteral.set(literal, (verdict = parseSegment(parser, literal) !== NoParse));
    return verdict;
  }
}

/** Puts `id` into the ascending list `ids`, in its place (no sort: `sort` copies the list first). */
function insertAscending(ids: number[], id: number): void {
  let at = ids.length;
  ids.push(id);
  while (at > 0 && ids[at - 1]! > id) {
    ids[at] = ids[at - 1]!;
    at--;
  }
  ids[at] = id;
}

/**
 * `routes` followed by NONE, in a list of just that length (`slice`: a list grown by `push` keeps
 * room for more, and states keep theirs); the shared {@link NO_ROUTES} for none.
 */
function terminated(routes: number[] | null): readonly number[] {
  if (routes === null) return NO_ROUTES;
  routes.push(NONE);
  return routes.slice();
}
