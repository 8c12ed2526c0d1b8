import type { PathParser } from "../../../parsers/parser.js";
import type { ChosenRecord, MadeByCode } from "../answers.js";
import type { StaticPaths } from "./static-paths.js";
import type { State } from "./state.js";

/*
 * What an automaton keeps per request method (an entry), and the shapes of the generated functions
 * an entry may hold: the types shared by build/ (which makes entries), generate/ (which writes the
 * code) and run/ (which calls it).
 */

/** The first route known for a whole raw path, or NONE: an entry's static paths as generated code. */
export type StaticLookup = (path: string) => number;

/**
 * What a generated walk reads and writes on the automaton: the records its table walk keeps (all of
 * them, or those something will read: see generate/walk.ts), and that walk itself, which takes over
 * below the generated states.
 */
export interface WalkRecords extends ChosenRecord {
  /** Starts a walk of a raw path (new walk number, nothing consumed yet). */
  begin(): void;
  readonly bounds: number[];
  consumed: number;
  complete: boolean;
  /**
   * The route whose vars the generated code made and returned (see answers.ts); written instead of
   * the vars themselves, since storing a new object in the long-lived records would cost a write
   * barrier.
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
 * The first route for a path or request target, read as it is (see run/target.ts), from the start:
 * its number (NONE for none), or, where the code itself chose it, the route {@link MadeByCode} (its
 * number then in {@link WalkRecords.chosen}); or UNDECIDED (so for a target not starting with `/`,
 * too). A miss (NONE) is one: the code checks what it did not read.
 */
export type GeneratedWalk = (path: string, records: WalkRecords) => number | MadeByCode;

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

/** The entries of an automaton by method: `entries[i]` for `methods[i]`, `otherwise` for any other method. */
export interface EntriesByMethod {
  readonly methods: readonly string[];
  readonly entries: readonly Entry[];
  readonly otherwise: Entry;
}
