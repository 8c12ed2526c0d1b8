import type { Chain } from "../../../chains.js";
import type { PathParser } from "../../../parsers/parser.js";
import type { Handler } from "../../../tree.js";
import type { VarsFactory } from "../../../vars.js";
import type { State } from "../run/state.js";

/*
 * The one object a walk's generation works on (walk-steps.ts, walk-answers.ts): what is fixed for
 * the generation, the code written so far with what it refers to, and what the branch being
 * written knows. Every step takes it as its first argument; nothing else is shared between steps.
 */

/** What one generation of a walk is asked for. */
export interface WalkOptions {
  /** Each route's tests and leaf. */
  readonly chainOf: (route: number) => Chain;
  /**
   * Every walk keeps full records (every segment's bounds stored as it is read): for a guard's
   * routes, whose vars are always bound from the records on top of the guard's.
   */
  readonly keepRecords: boolean;
  /**
   * Leave out what only a reader of the records needs (the new walk number, how many segments were
   * consumed, whether that was all), which most small tables' code never has (no hand-over, no
   * parsers' records, no value parsed again).
   */
  readonly lean: boolean;
  /** Lines the code may have. */
  readonly most: number;
  /** States at this depth and below are handed over to the table walk. */
  readonly deepest: number;
  /** The whole walk or nothing: no hand-over to fit the budget (see {@link TooLong}). */
  readonly whole: boolean;
}

/** Raised by a generation that may not hand over to fit the budget once it no longer fits. */
export class TooLong extends Error {}

/** A generation of one walk in progress. */
export class WalkContext {
  /** The walk's body so far, one statement or block edge a line. */
  readonly lines: string[] = [];
  /** What the code refers to by index, each as a constant of its own: `S<i>`, `Q<i>`, `F<i>`, `H<i>`. */
  readonly states: State[] = [];
  readonly parsers: PathParser<unknown>[] = [];
  readonly factories: VarsFactory[] = [];
  readonly handlers: (Handler<never> | null)[] = [];
  /** States whose transitions are generated code (none: the table walk alone does the same for less). */
  transitions = 0;
  /** Whether some code reads the walk's records (then its lean form would be wrong). */
  readsRecords = false;
  /** Whether some code stores segment bounds in the records (`B`). */
  boundsStored: boolean;
  /** `w.complete = true; `, unless lean. */
  readonly completed: string;
  /** By depth, along the branch being written: the state whose parsers read the segment there, or null. */
  readonly parsedBy: (State | null)[] = [];
  /** By depth, along the branch: the parsers whose values the code keeps in locals (`v<depth>_<i>`), or null. */
  readonly parsedInline: (readonly PathParser<unknown>[] | null)[] = [];

  constructor(readonly options: WalkOptions) {
    this.boundsStored = options.keepRecords;
    this.completed = options.lean ? "" : "w.complete = true; ";
  }

  /** The constant naming `state` in the code. */
  stateRef(state: State): string {
    return `S${indexIn(this.states, state)}`;
  }

  /** The constant naming `parser` in the code. */
  parserRef(parser: PathParser<unknown>): string {
    return `Q${indexIn(this.parsers, parser)}`;
  }

  /** The constant naming `factory` in the code. */
  factoryRef(factory: VarsFactory): string {
    return `F${indexIn(this.factories, factory)}`;
  }

  /** The constant naming `handler` (null: a route ending at a guard) in the code. */
  handlerRef(handler: Handler<never> | null): string {
    return `H${indexIn(this.handlers, handler)}`;
  }
}

/** An index in a list of things the generated code refers to, the thing added if new. */
function indexIn<T>(list: T[], item: T): number {
  const index = list.indexOf(item);
  return index !== -1 ? index : list.push(item) - 1;
}
