import { NoParse, parseSegment, type PathParser } from "../../../parsers/parser.js";
import { parseInPlace, readsInPlace } from "../../../parsers/in-place.js";
import { plainFrom, plainSegmentEnd, rawCanHold } from "./target.js";

/*
 * The routes still alive after `depth` segments, as one state of a deterministic automaton (the
 * subset construction over segments, build/states.ts). Routes are numbered in first-match order, so
 * "the first route that matches" is the smallest number that completes. A state knows which routes
 * complete in it and where each possible next segment leads: literal segments through a hash table,
 * any other segment through the verdicts of the parsers of the typed routes, so the routes are never
 * scanned one by one. Parsers must be pure functions of the segment: a literal's verdict is taken
 * once, at build.
 *
 * This file is the state as a walk reads it at request time. Its two setters (`setLiterals`,
 * `setOthers`) are build's: they lay out the tables the reads below probe, so the layout's writer
 * and its readers stay side by side. The few read-only views at the end are what the generator
 * (generate/walk-steps.ts) and the printer (explain.ts) read.
 */

/** What a walk records when parsers read a segment: the state, by depth, and the walk's number. */
export interface ParseRecords {
  readonly parsedAt: (State | null)[];
  readonly walkNumber: number;
}

/** The records of a walk of a raw path, which also learns where each segment ends as it is matched. */
export interface PathRecords extends ParseRecords {
  /** Where the segment matched last ends (written by {@link State.nextInPath}). */
  matchedEnd: number;
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

/** Typed-segment parsers beyond this many at one state get their transitions built on first use. */
const EAGER_PARSERS = 4;

/*
 * Shared by every state that has no parsers to decide its next state, and never written to (only
 * such a state's walk does). Not frozen: a frozen list has a map of its own, which would make the
 * walk's reads of these fields see two kinds of list.
 */
export const NO_PARSERS: readonly PathParser<unknown>[] = [];
const NOTHING: never[] = [];

/** One state: the routes alive after `depth` segments, where they complete, and where each segment leads. */
export class State {
  // (the fields a walk reads come first, in the order it reads them: V8 lays an object's fields out
  // in the order they are defined, so these share the object's first cache lines; GitHub mix 28.7 →
  // 26.0 simulated first-level data misses per lookup, `AB_COUNT=cache node bench/ab.js`; in time,
  // with the route's order, level on this machine: GitHub 0.99, growth 1,000 1.00, 9 child rounds)
  /** The first route that completes here even when segments remain; NONE if none does. */
  readonly prefixFirst: number;
  /** The smallest route that needs more segments than this state has seen; NONE if none does. */
  readonly onward: number;
  /** When exactly one literal that a raw segment can be is wanted next: it and its state, compared without a table. */
  private only: string | null = null;
  /**
   * The literals wanted next that a raw segment can be, open-addressed by their first three characters,
   * each entry `[literal, next state, first two characters, third character]` (the third with a
   * literal's characters 3 and 4 above it when it has four or five: see `tailOf`). The key is read
   * from the request path in place, before the segment's end is known: a character at or after a `/`
   * (or the end) reads as a `/`, so the key of a literal shorter than three ends in `/`s, and a
   * segment whose key equals a literal's is that literal up to its third character. A longer one is
   * then told by its end and its tail, or one native compare; a raw path's segment needs no
   * `indexOf` unless no literal matches.
   */
  private table: (string | State | number | null | undefined)[] | null = null;
  private tableMask = 0;
  /** 32 − log2(slots): the top bits of the mixed key pick the slot. */
  private tableShift = 32;
  /** The next state for a segment that is no literal here, when no parser has a say (`undefined` when one has). */
  private other: State | null | undefined = null;
  private onlyNext: State | null = null;
  /** The first route that completes here when no segment remains; NONE if none does. */
  readonly endFirst: number;
  /**
   * How many characters of a segment captured here, of a request target read as it is, are read one
   * by one (see {@link checkedEnd}): {@link CHECKED_BY_LOOP} while the last one was that short, else 0.
   */
  private captureLoop = CHECKED_BY_LOOP;
  /** Segments consumed when the walk is here. */
  readonly depth: number;
  /** All routes (ascending, NONE-terminated) that complete here even when segments remain. */
  readonly prefixRoutes: readonly number[];
  /** All routes (ascending, NONE-terminated) that complete here when no segment remains. */
  readonly endRoutes: readonly number[];
  /**
   * Literals with a `/`, `%` or `?` (only a decoded segment ever equals them: see `rawCanHold`) and
   * where each leads: only the walk of decoded segments looks here. Null when there are none.
   */
  private decodedOnly: Map<string, State | null> | null = null;
  // (the fields below start shared and empty: most states have no parsers to decide)
  /** The parsers (other than `Text`, which accepts anything) of routes wanting a typed segment here. */
  private parsers: readonly PathParser<unknown>[] = NO_PARSERS;
  /** The next state for a segment that is no literal here, by the mask of `parsers` that accept it. */
  private byMask: (State | null | undefined)[] = NOTHING;
  /**
   * Builds the states of `byMask` not built yet (build's code, called at request time the first time
   * a combination of verdicts occurs); null when a few parsers had them all built at once.
   */
  private buildLater: ((mask: number) => State | null) | null = null;
  /** What the last {@link typed} call read: in which walk (its number), and the segment's value by each of `parsers`. */
  parsedIn = -1;
  private values: unknown[] = NOTHING;

  /** The state after `depth` segments, its routes that complete here, and the first still wanting segments. */
  constructor(depth: number, prefixRoutes: readonly number[], endRoutes: readonly number[], onward: number) {
    this.depth = depth;
    this.prefixRoutes = prefixRoutes;
    this.endRoutes = endRoutes;
    this.prefixFirst = prefixRoutes[0]!;
    this.endFirst = endRoutes[0]!;
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
      table[slot + 3] = c2 | (tailOf(literal) << 16);
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
    if (parsers.length > EAGER_PARSERS) this.buildLater = next;
    else for (let mask = 0; mask < this.byMask.length; mask++) this.byMask[mask] = next(mask);
  }

  /** The literals wanted next and where each leads (empty when none is); the keyed ones in table order. */
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

  /** The slots of the literal table (0: no table; one literal is compared without one), for the printer. */
  literalSlots(): number {
    return this.table === null ? 0 : this.table.length / 4;
  }

  /**
   * Where the segment of the raw path or request target `text` starting at `start` leads, its end
   * then in `records.matchedEnd`: a literal is matched where it lies, the end looked for only when
   * none does and another segment can go somewhere. Where `text` is not known to be plain (see
   * {@link PathRecords.restPlain}), a segment holding a `%` or `?` leads nowhere: it must be decoded,
   * or the path ends in it. When parsers decide, the walk records this state, whose {@link valueFor}
   * then gives their values without parsing again.
   */
  nextInPath(text: string, start: number, records: PathRecords): State | null {
    // (in small parts: V8 inlines each into the walk, and would not inline the whole)
    const matched =
      this.only !== null
        ? this.onlyAt(text, start, records)
        : this.table !== null
          ? this.literalAt(text, start, records)
          : undefined;
    if (matched !== undefined) return matched;
    // no other segment goes anywhere from here: a miss, whatever the segment holds (its end unread)
    if (this.other === null) return null;
    const end = records.restPlain ? plainSegmentEnd(text, start) : this.capturedEnd(text, start, records);
    // a segment to decode, or the query, is not read here: the walk stops as at a miss
    if (end === -1) return null;
    records.matchedEnd = end;
    if (this.other !== undefined) return this.other;
    return this.parsed(text, start, end, records);
  }

  /** {@link checkedEnd} of a segment captured here, its first characters read one by one while this state's captures are short. */
  private capturedEnd(text: string, start: number, records: PathRecords): number {
    const loop = this.captureLoop;
    const end = checkedEnd(text, start, records, loop);
    if (end !== -1) {
      const fits = end - start <= CHECKED_BY_LOOP ? CHECKED_BY_LOOP : 0;
      if (fits !== loop) this.captureLoop = fits;
    }
    return end;
  }

  /** {@link nextInPath} for the one literal wanted: where it leads when it is the segment, else undefined. */
  private onlyAt(text: string, start: number, records: PathRecords): State | null | undefined {
    const only = this.only!;
    const end = start + only.length;
    if (!endsAt(text, end) || text.slice(start, end) !== only) return undefined;
    records.matchedEnd = end;
    return this.onlyNext;
  }

  /** {@link nextInPath} for the literal table: where the literal that is the segment leads, else undefined. */
  private literalAt(text: string, start: number, records: PathRecords): State | null | undefined {
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
      const word = table[slot + 3] as number;
      if (table[slot + 2] !== k01 || (word & 0xffff) !== c2) continue;
      // shorter than three, the key saw its end; of three, it saw the characters; of four or five,
      // their tail is compared with the key's (no slice); else a native compare (a character loop,
      // its length varying from request to request, cost more)
      const end = start + literal.length;
      if (
        literal.length < 3 ||
        (endsAt(text, end) &&
          (literal.length === 3 ||
            (word > 0xffff ? tailAt(text, start, word >> 16) : text.slice(start, end) === literal)))
      ) {
        records.matchedEnd = end;
        return table[slot + 1] as State | null;
      }
    }
  }

  /**
   * Where the decoded segment `segment` leads (it may hold a `/`, from a `%2F`). When parsers
   * decide, the walk records this state, as {@link nextInPath}.
   */
  next(segment: string, records: ParseRecords): State | null {
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
        if (table[slot + 2] === k01 && ((table[slot + 3] as number) & 0xffff) === c2 && literal === segment)
          return table[slot + 1] as State | null;
      }
    }
    const decodedOnly = this.decodedOnly;
    if (decodedOnly !== null) {
      const next = decodedOnly.get(segment);
      if (next !== undefined) return next;
    }
    if (this.other !== undefined) return this.other;
    return this.parsed(segment, 0, length, records);
  }

  /**
   * Where the segment `text[start, end)` leads when it is no literal here and parsers decide
   * ({@link otherwise} is `undefined`). The walk records this state, whose {@link valueFor} then
   * gives the parsers' values without parsing again.
   */
  parsed(text: string, start: number, end: number, records: ParseRecords): State | null {
    records.parsedAt[this.depth] = this;
    this.parsedIn = records.walkNumber;
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
    if (next === undefined) next = this.byMask[mask] = this.buildLater!(mask);
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
 * at once (which `records` then know to be plain from here on) and the end found natively. (Generated
 * code's `segmentEnd` reads a segment the same way; one function for both made the table walk
 * slower, growth 1,000 routes 1.06–1.08× in 7 child rounds.)
 */
function checkedEnd(text: string, start: number, records: PathRecords, loop: number): number {
  const length = text.length;
  const stop = length - start > loop ? start + loop : length;
  for (let at = start; at < stop; at++) {
    const c = text.charCodeAt(at);
    if (c === 47 /* / */) return at;
    if (c === 37 /* % */ || c === 63 /* ? */) return -1;
  }
  if (stop === length) return length;
  if (!plainFrom(text, stop)) return -1;
  records.restPlain = true;
  return plainSegmentEnd(text, stop);
}

/**
 * A literal's characters 3 and 4, kept beside its key when it has four or five characters, both in
 * 1-127: `c3 | c4 << 7` (c4 0 for four), so the table compares them read in place, without a slice.
 * 0 otherwise (the slice and a native compare). Fits 14 bits: with the key's third character
 * (16 bits) the word stays a small integer.
 */
function tailOf(literal: string): number {
  if (literal.length !== 4 && literal.length !== 5) return 0;
  const c3 = literal.charCodeAt(3);
  const c4 = literal.length === 5 ? literal.charCodeAt(4) : 0;
  const ascii = (c: number) => c > 0 && c < 128;
  return ascii(c3) && (literal.length === 4 || ascii(c4)) ? c3 | (c4 << 7) : 0;
}

/**
 * True when the segment of `text` at `start`, which has the literal's length and key, has its
 * characters 3 and 4 as in `tail` ({@link tailOf}; character 4 only when the literal has five).
 */
function tailAt(text: string, start: number, tail: number): boolean {
  return text.charCodeAt(start + 3) === (tail & 127) && (tail < 128 || text.charCodeAt(start + 4) === tail >> 7);
}

/** True when a segment of the raw path `text` can end at `end`: the path ends there, or a `/` is there. */
function endsAt(text: string, end: number): boolean {
  return end === text.length || (end < text.length && text.charCodeAt(end) === 47) /* / */;
}
