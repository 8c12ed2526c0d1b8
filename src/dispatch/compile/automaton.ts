import type { Chain } from "../../chains.js";
import { NoParse, parseSegment, type PathParser } from "../../parsers/parser.js";
import { Text } from "../../parsers/text.js";
import { NONE, type PathWalk, State, StateBuilder } from "./states.js";
import { StaticPaths } from "./statics.js";
import { type StaticLookup, staticSwitch } from "./staticSwitch.js";
import { type Chosen, type CodeBudget, type GeneratedWalk, walkSwitch, type WalkRecords } from "./walkSwitch.js";
import { plainFrom, rawCanHold, UNDECIDED } from "./target.js";
import type { EntriesByMethod } from "./front.js";

/** Lines of generated code one automaton may have, all methods together (see {@link CodeBudget}). */
const GENERATED_LINES = 1200;
/**
 * Tables of more routes get no generated code: there it only covered the first levels, and the
 * hand-overs to the table walk cost what it saved (GitHub's 516 routes: 7–13 % slower; 1,000 and
 * 10,000 routes: level; notes/issue-12.md, round 2).
 */
const GENERATED_ROUTES = 256;

/**
 * Segments the records of a walk have room for from the start; deeper walks make more room first.
 * A store past the end of a list makes V8 compile that store, for every later walk, as one that may
 * grow the list: records that started empty made every table built after the first one in a
 * process slower (1,000 routes: 89 → 106 ns per lookup). Generated code reads at most 16 segments.
 */
const RECORDED_DEPTHS = 32;

/** Where the routes for one request method start. */
export interface Entry {
  readonly start: State | null;
  /**
   * Raw paths (no `%`) whose answer is known when the automaton is built: the first route for them
   * is fully static and consumes the whole path. Generated code (a switch) or one probe of a table
   * answers them.
   */
  readonly statics: StaticPaths | null;
  /** The same as generated code, where the runtime allows it (then `statics` is null). */
  readonly staticCode: StaticLookup | null;
  /** The walk from the start as generated code, where the runtime allows it. */
  readonly walk: GeneratedWalk | null;
}

/**
 * What a walk chose: a route's number (NONE for none); or, where generated code chose it, the route
 * with its vars and rest, made there, its number then being {@link Automaton.chosen}.
 */
export type Choice = number | Chosen;

/** The route `choice` is, of the last walk of `automaton`. */
export function routeOf(choice: Choice, automaton: Automaton): number {
  return typeof choice === "number" ? choice : automaton.chosen;
}

/**
 * The routes of a tree as one automaton per request method (a route with no method is in all of
 * them, and in the one for every other method). `first` gives the first route, in order, that
 * matches a path, or the first after a given one, which is how a handler's `routeMismatch()` resumes
 * the search exactly where the interpreter would.
 */
export class Automaton implements PathWalk, WalkRecords {
  // by method, side by side: a few `===` beat a Map's hashing of the method string
  private readonly methods: string[] = [];
  private readonly entries: Entry[] = [];
  private readonly anyMethod: Entry;
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
  end = 0;
  /** Whether the text walked holds no `%` and no `?` from the segment being read on (see {@link PathWalk.restPlain}). */
  restPlain = true;
  /**
   * By depth, the last state whose parsers read a segment there (see {@link State.next}); its values
   * are this walk's when its `walk` is this walk's `number`, which is new for every walk.
   */
  readonly parsedAt: (State | null)[] = Array.from({ length: RECORDED_DEPTHS }, () => null);
  number = 0;
  /** When the last walk returned the route it chose as {@link Chosen} (generated code does): its number. */
  chosen = NONE;

  /**
   * `keepRecords`: every walk leaves the bounds of every segment it read in its records, generated
   * code too (see walkSwitch.ts): for a guard's routes, whose vars are bound from them.
   */
  constructor(
    readonly chains: readonly Chain[],
    private readonly keepRecords = false,
  ) {
    const builder = new StateBuilder(chains);
    const budget: CodeBudget = { lines: chains.length <= GENERATED_ROUTES ? GENERATED_LINES : 0 };
    // the routes of each method, in one pass: a route with no method is in every list
    const byMethod = new Map<string, number[]>();
    const anyMethod: number[] = [];
    for (let id = 0; id < chains.length; id++) {
      const method = chains[id]!.method;
      if (method === null) {
        anyMethod.push(id);
        for (const ids of byMethod.values()) ids.push(id);
        continue;
      }
      const ids = byMethod.get(method);
      if (ids !== undefined) ids.push(id);
      else byMethod.set(method, [...anyMethod, id]);
    }
    for (const [method, ids] of byMethod) {
      this.methods.push(method);
      this.entries.push(this.entry(builder, budget, ids));
    }
    this.anyMethod = this.entry(builder, budget, anyMethod);
  }

  /** Every entry, by method (for code that tells the method itself: see front.ts). */
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
   * code may return the route with its vars instead, made as it chose the route: see {@link Choice}.
   */
  firstInPath(entry: Entry, path: string, after: number): Choice {
    if (after < 0 && entry.walk !== null && path.charCodeAt(0) === 47 /* / */) return entry.walk(path, this);
    this.begin();
    const state = entry.start;
    if (state === null) return NONE;
    const start = path.charCodeAt(0) === 47 /* / */ ? 1 : 0;
    if (start >= path.length) {
      this.complete = true;
      return after < 0 ? state.endFirst : firstAfter(state.end, after);
    }
    return this.walkFrom(path, state, 0, start, NONE, after);
  }

  /** Starts a walk of a raw path (cut at its query, with no `%`: see {@link PathWalk.restPlain}). */
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
      const done = after < 0 ? current.prefixFirst : firstAfter(current.prefix, after);
      if (done < best) best = done;
      if (current.onward >= best) return best;
      if (depth >= RECORDED_DEPTHS) this.roomFor(depth);
      current = current.nextInPath(path, start, this);
      // (a segment that leads nowhere is not consumed: its end is not always looked for)
      if (current === null) return best;
      const end = this.end;
      bounds[2 * depth] = start;
      bounds[2 * depth + 1] = end;
      this.consumed = depth + 1;
      if (end === length) break;
      start = end + 1;
    }
    this.complete = true;
    const done = after < 0 ? current.endFirst : firstAfter(current.end, after);
    return Math.min(done, best);
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
      const done = after < 0 ? state.prefixFirst : firstAfter(state.prefix, after);
      if (done < best) best = done;
      if (state.onward >= best) return best;
      const segment = segments[from + depth]!;
      if (depth >= RECORDED_DEPTHS) this.roomFor(depth);
      state = state.next(segment, this);
      if (state === null) return best;
      this.consumed = depth + 1;
    }
    this.complete = true;
    const done = after < 0 ? state.endFirst : firstAfter(state.end, after);
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
    if (++this.number === 0x3fffffff) {
      this.number = 0;
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
    if (parsed !== null && parsed !== undefined && parsed.walk === this.number) {
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

  /** The entry for the routes `ids` (ascending). */
  private entry(builder: StateBuilder, budget: CodeBudget, ids: readonly number[]): Entry {
    const chains = this.chains;
    // the static paths are found by walking the automaton without them
    const walked: Entry = { start: builder.state(0, ids), statics: null, staticCode: null, walk: null };
    const statics = new Map<string, number>();
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      const tests = chains[id]!.tests;
      // a static path is a raw one: literals only, each one a raw segment can be
      if (!tests.every((t) => typeof t === "string" && rawCanHold(t))) continue;
      const winner = this.firstInSegments(walked, tests as string[], 0, -1);
      const chain = chains[winner];
      if (
        chain !== undefined &&
        chain.tests.length === tests.length &&
        chain.tests.every((t) => typeof t === "string")
      ) {
        statics.set(`/${tests.join("/")}`, winner);
      }
    }
    // no budget left: generating code would only be thrown away
    const generate = budget.lines > 0;
    const walk =
      walked.start === null || !generate
        ? null
        : walkSwitch(walked.start, (route) => chains[route]!, this.keepRecords, budget);
    // generated code where allowed and small enough, else a table (always on Cloudflare Workers)
    const staticCode = statics.size > 0 && generate ? staticSwitch(statics, budget) : null;
    return {
      start: walked.start,
      statics: staticCode === null && statics.size > 0 ? new StaticPaths(statics) : null,
      staticCode,
      walk,
    };
  }
}

/** The first route of an ascending NONE-terminated list that comes after `after`. */
function firstAfter(routes: readonly number[], after: number): number {
  let i = 0;
  while (routes[i]! <= after) i++;
  return routes[i]!;
}
