import type { Chain } from "../../../chains.js";
import { NoParse, parseSegment, type PathParser } from "../../../parsers/parser.js";
import { Text } from "../../../parsers/text.js";
import { type Choice, NONE, UNDECIDED } from "../answers.js";
import type { EntriesByMethod, Entry, WalkRecords } from "./entry.js";
import type { PathRecords, State } from "./state.js";
import { plainFrom } from "./target.js";

/**
 * Segments the records of a walk have room for from the start; deeper walks make more room first.
 * A store past the end of a list makes V8 compile that store, for every later walk, as one that may
 * grow the list: records that started empty made every table built after the first one in a
 * process slower (1,000 routes: 89 → 106 ns per lookup). Generated code reads at most 16 segments.
 */
const RECORDED_DEPTHS = 32;

/**
 * The routes of a tree as one automaton per request method (a route with no method is in all of
 * them, and in the one for every other method), as lookups read it; build/automaton.ts makes it.
 * The `first…` methods give the first route, in order, that matches a path, or the first after a
 * given one, which is how a handler's `routeMismatch()` resumes the search exactly where the
 * interpreter would.
 */
export class Automaton implements PathRecords, WalkRecords {
  // What the last walk consumed (a walk never yields, so one record serves every request): the bounds
  // of its segments in the raw path, or the decoded segments; how many; whether that was all. The raw
  // path itself is not kept: storing a new string in this long-lived object costs a write barrier
  // per lookup, so readers of the records are given it again. (The records are made with room for
  // RECORDED_DEPTHS segments, and a walk makes more before it goes deeper: see roomFor.)
  readonly bounds: number[] = Array.from({ length: 2 * RECORDED_DEPTHS }, () => 0);
  private segments: readonly string[] | null = null;
  private from = 0;
  consumed = 0;
  complete = false;
  /** Where the segment the walk of a raw path matched last ends (see {@link State.nextInPath}). */
  matchedEnd = 0;
  /** Whether the text walked holds no `%` and no `?` from the segment being read on (see {@link PathRecords.restPlain}). */
  restPlain = true;
  /**
   * By depth, the last state whose parsers read a segment there (see {@link State.next}); its values
   * are this walk's when its `parsedIn` is this walk's `walkNumber`, which is new for every walk.
   */
  readonly parsedAt: (State | null)[] = Array.from({ length: RECORDED_DEPTHS }, () => null);
  walkNumber = 0;
  /** When the last walk returned the route it chose as `MadeByCode` (generated code does): its number (answers.ts). */
  chosen = NONE;

  /**
   * `entries[i]` is the entry for `methods[i]`, `anyMethod` the one for any other method (what
   * build/automaton.ts made of `chains`, the routes in first-match order).
   */
  constructor(
    readonly chains: readonly Chain[],
    // by method, side by side: a few `===` beat a Map's hashing of the method string
    private readonly methods: readonly string[],
    private readonly entries: readonly Entry[],
    private readonly anyMethod: Entry,
  ) {}

  /** Every entry, by method (for code that tells the method itself: see generate/front.ts). */
  byMethod(): EntriesByMethod {
    return { methods: this.methods, entries: this.entries, otherwise: this.anyMethod };
  }

  /** The entry for a request method. */
  entryFor(method: string): Entry {
    const methods = this.methods;
    for (let i = 0; i < methods.length; i++) if (methods[i] === method) return this.entries[i]!;
    return this.anyMethod;
  }

  /**
   * The first route for `target` when it is one of the entry's static paths, else NONE. Checked
   * before anything else: a hit is a path with no `?` and no `%`, so callers can skip those scans.
   * Nothing is recorded: a static route has no variables, and it consumes the whole path, so it
   * leaves no rest.
   */
  firstStatic(entry: Entry, target: string): number {
    const code = entry.staticCode;
    if (code !== null) return code(target);
    const statics = entry.statics;
    return statics !== null ? statics.get(target) : NONE;
  }

  /**
   * The first route for the request target `url` read as it is, from the start, by the table walk
   * (what an entry's generated walk does by code), else {@link UNDECIDED}: literals are matched
   * where they lie, a captured segment is checked for `%` and `?` as it is read (see
   * {@link State.nextInPath}), and what the walk did not consume is checked before it answers.
   */
  firstInTargetByTable(entry: Entry, url: string): number {
    if (url.charCodeAt(0) !== 47 /* / */) return UNDECIDED;
    this.begin();
    this.restPlain = false;
    const state = entry.start;
    if (state === null) return NONE;
    if (url.length === 1) {
      this.complete = true;
      return state.endFirst;
    }
    const best = this.walkFrom(url, state, 0, 1, NONE, -1);
    return this.complete || this.plainUnconsumed(url) ? best : UNDECIDED;
  }

  /** True when what the last walk of the target `url` did not consume (the segment it failed at, a prefix route's rest) holds no `%` or `?`. */
  private plainUnconsumed(url: string): boolean {
    const consumed = this.consumed;
    const from = consumed > 0 ? this.bounds[2 * consumed - 1]! + 1 : 1;
    return this.restPlain || plainFrom(url, from);
  }

  /**
   * The first route after route `after` (-1: from the start) that matches the raw path `path`, which
   * has no `%`, so its segments need no decoding; NONE when there is none. From the start, generated
   * code may return the route with its vars instead, made as it chose the route: see `Choice` (answers.ts).
   */
  firstInPath(entry: Entry, path: string, after: number): Choice {
    if (after < 0 && entry.walk !== null && path.charCodeAt(0) === 47 /* / */) return entry.walk(path, this);
    this.begin();
    const state = entry.start;
    if (state === null) return NONE;
    const start = path.charCodeAt(0) === 47 /* / */ ? 1 : 0;
    if (start >= path.length) {
      this.complete = true;
      return after < 0 ? state.endFirst : firstAfter(state.endRoutes, after);
    }
    return this.walkFrom(path, state, 0, start, NONE, after);
  }

  /** Starts a walk of a raw path (cut at its query, with no `%`: see {@link PathRecords.restPlain}). */
  begin(): void {
    this.renumber();
    this.segments = null;
    this.consumed = 0;
    this.complete = false;
    this.restPlain = true;
  }

  /**
   * The walk of the raw path `path` from `state` at `depth`, a segment starting at `start`; `best`:
   * the first route found so far.
   */
  walkFrom(path: string, state: State, depth: number, start: number, best: number, after: number): number {
    const length = path.length;
    const bounds = this.bounds;
    let current: State | null = state;
    for (; ; depth++) {
      const done = after < 0 ? current.prefixFirst : firstAfter(current.prefixRoutes, after);
      if (done < best) best = done;
      if (current.onward >= best) return best;
      if (depth >= RECORDED_DEPTHS) this.roomFor(depth);
      current = current.nextInPath(path, start, this);
      // (a segment that leads nowhere is not consumed: its end is not always looked for)
      if (current === null) return best;
      const end = this.matchedEnd;
      bounds[2 * depth] = start;
      bounds[2 * depth + 1] = end;
      this.consumed = depth + 1;
      if (end === length) break;
      start = end + 1;
    }
    this.complete = true;
    const done = after < 0 ? current.endFirst : firstAfter(current.endRoutes, after);
    // biome-ignore lint/complexity/useMathMinMax: V8 compiled Math.min here through doubles (GitHub mix 13 instructions per lookup more)
    return done < best ? done : best;
  }

  /** As {@link firstInPath}, over decoded segments from index `from` on. */
  firstInSegments(entry: Entry, segments: readonly string[], from: number, after: number): number {
    this.renumber();
    this.segments = segments;
    this.from = from;
    this.consumed = 0;
    this.complete = false;
    let state = entry.start;
    if (state === null) return NONE;
    let best = NONE;
    for (let depth = 0; from + depth < segments.length; depth++) {
      const done = after < 0 ? state.prefixFirst : firstAfter(state.prefixRoutes, after);
      if (done < best) best = done;
      if (state.onward >= best) return best;
      const segment = segments[from + depth]!;
      if (depth >= RECORDED_DEPTHS) this.roomFor(depth);
      state = state.next(segment, this);
      if (state === null) return best;
      this.consumed = depth + 1;
    }
    this.complete = true;
    const done = after < 0 ? state.endFirst : firstAfter(state.endRoutes, after);
    return Math.min(done, best);
  }

  /** Makes room in the records for the segment at `depth`, past {@link RECORDED_DEPTHS}. */
  private roomFor(depth: number): void {
    while (this.parsedAt.length <= depth) {
      this.parsedAt.push(null);
      this.bounds.push(0, 0);
    }
  }

  /** A new number for a new walk; on wrap-around every record is forgotten, so none can pass for new. */
  private renumber(): void {
    if (++this.walkNumber === 0x3fffffff) {
      this.walkNumber = 0;
      this.parsedAt.fill(null);
    }
  }

  /**
   * Segment `depth` of the last walk as `parser` reads it, parsed again only when the walk did not;
   * `text`: the raw path, when that is what the walk read.
   */
  value(depth: number, parser: PathParser<unknown>, text: string): unknown {
    if (parser === Text) return this.segment(depth, text);
    const parsed = this.parsedAt[depth];
    if (parsed !== null && parsed !== undefined && parsed.parsedIn === this.walkNumber) {
      const value = parsed.valueFor(parser);
      if (value !== NoParse) return value;
    }
    return parseSegment(parser, this.segment(depth, text));
  }

  /** Segment `depth` of the last walk (of the raw path `text`, or of decoded segments). */
  private segment(depth: number, text: string): string {
    const segments = this.segments;
    return segments !== null
      ? segments[this.from + depth]!
      : text.slice(this.bounds[2 * depth], this.bounds[2 * depth + 1]);
  }

  /**
   * The raw segments after the first `depth` of the last walk, of the raw path `text`, which did not
   * end there (see {@link endedAt}): the walk knows where segment `depth` starts.
   */
  restAfter(depth: number, text: string): string[] {
    const from = depth > 0 ? this.bounds[2 * depth - 1]! + 1 : text.charCodeAt(0) === 47 /* / */ ? 1 : 0;
    if (depth === 0 && from >= text.length) return [];
    let slash = text.indexOf("/", from);
    // most rests are one segment (a file name): a list made whole, not grown by `push`
    if (slash === -1) return [text.slice(from)];
    const rest = [text.slice(from, slash)];
    for (let at = slash + 1; ; at = slash + 1) {
      slash = text.indexOf("/", at);
      if (slash === -1) {
        rest.push(text.slice(at));
        return rest;
      }
      rest.push(text.slice(at, slash));
    }
  }

  /** True when the last walk saw every segment and there were exactly `depth` of them. */
  endedAt(depth: number): boolean {
    return this.complete && this.consumed === depth;
  }
}

/** The first route of an ascending NONE-terminated list that comes after `after`. */
function firstAfter(routes: readonly number[], after: number): number {
  let i = 0;
  while (routes[i]! <= after) i++;
  return routes[i]!;
}
