import type { PathParser } from "../../parsers/parser.js";
import { Text } from "../../parsers/text.js";
import type { Chain, Leaf } from "../../chains.js";
import { type MatchedRoute, matchedRoute, nameBelow, type RouteName } from "../../matched-route.js";
import type { Handler } from "../../tree.js";
import { extendVars, type VarsRecord, type VarsFactory, varsShape } from "../../vars.js";

/*
 * One route of a compiled program (a chain of chains.ts, numbered in first-match order) as running it
 * needs it: its leaf and handler, how many segments it consumes, and how its variables are bound
 * from a walk's records. Build makes them (build/program.ts), generated code reads its variables
 * (generate/walk-answers.ts), run binds them (run/find.ts, run/dispatch.ts). A route's "variables"
 * are what it captures (label, parser, depth); its "vars" the object a handler gets.
 */

/*
 * Shared by the routes without variables. Not frozen, and each of the kind V8 gives the lists it
 * stands for: a frozen list, or an empty `[]` where lists of strings are expected, has a map of its
 * own, and code that read both kinds was compiled again.
 */
const NO_DEPTHS: readonly number[] = [];
const NO_VALUES: readonly never[] = [""].slice(1) as never[];

/**
 * Where a route's variables are gathered before they are copied to lists of their own (`slice`:
 * just long enough, where lists grown by `push` keep room for more; and no three lists to throw
 * away per route).
 */
const SCRATCH_DEPTHS: number[] = [];
const SCRATCH_LABELS: string[] = [];
const SCRATCH_PARSERS: PathParser<unknown>[] = [];

/** Where a variable's value comes from when a route's variables are bound: the walk that chose the route. */
export interface WalkValues {
  /**
   * Segment `depth` as `parser` reads it (the route's tests passed, so it accepts it); `text`: the
   * raw path the walk read, if it read one.
   */
  value(depth: number, parser: PathParser<unknown>, text: string): unknown;
}

/** A route's variables, in path order: what binding them needs. */
export interface RouteVariables {
  readonly labels: readonly string[];
  readonly parsers: readonly PathParser<unknown>[];
  /** The depth of the segment each is captured from. */
  readonly depths: readonly number[];
}

/** The variables of `chain`'s route (lists of their length; the routes without share empty ones). */
export function variablesOf(chain: Chain): RouteVariables {
  const tests = chain.tests;
  let count = 0;
  for (let depth = 0; depth < tests.length; depth++) {
    const test = tests[depth]!;
    if (typeof test === "string") continue;
    SCRATCH_DEPTHS[count] = depth;
    SCRATCH_LABELS[count] = test.label;
    SCRATCH_PARSERS[count++] = test.parser;
  }
  // not `map`: its compiled form makes lists of another kind
  if (count === 0) return { labels: NO_VALUES, parsers: NO_VALUES, depths: NO_DEPTHS };
  return {
    labels: SCRATCH_LABELS.slice(0, count),
    parsers: SCRATCH_PARSERS.slice(0, count),
    depths: SCRATCH_DEPTHS.slice(0, count),
  };
}

/** The handler a route ends at, or null when it ends at a gate: what `find` reports of it. */
export function handlerOf(leaf: Leaf): Handler<never> | null {
  return leaf.kind === "handler" ? leaf.handler : null;
}

/** What running a route needs: its leaf, how many segments it consumes, and how to bind its variables. */
export class CompiledRoute {
  // (the fields a lookup reads come first: V8 lays an object's fields out in the order they are
  // defined, so these share the object's first cache lines; GitHub mix 29.4 → 28.6 simulated
  // first-level data misses per lookup, `AB_COUNT=cache node bench/ab.js`; level in time here)
  /** {@link handlerOf} its leaf, in the route itself. */
  readonly handler: Handler<never> | null;
  /** Segments consumed by the route's tests. */
  readonly depth: number;
  /**
   * Makes the vars of this route alone (no guard above it captured any). Found on first use: a label
   * list not seen before costs a generated factory, which compiling would otherwise pay for
   * every route of a table at once.
   */
  private shape: VarsFactory | null = null;
  /**
   * How many variables, and the first three's depths and parsers again, in the route object itself:
   * binding reads them from the object it has in hand, not from two more lists elsewhere in memory
   * (GitHub mix 0.97, growth at 10,000 routes 0.95). Unused ones are 0 and `Text`.
   */
  private readonly count: number;
  private readonly depth0: number;
  private readonly depth1: number;
  private readonly depth2: number;
  private readonly parser0: PathParser<unknown>;
  private readonly parser1: PathParser<unknown>;
  private readonly parser2: PathParser<unknown>;
  readonly leaf: Leaf;
  /** Per variable, in path order: its label, its parser, the depth of the segment it is captured from. */
  private readonly labels: readonly string[];
  private readonly parsers: readonly PathParser<unknown>[];
  private readonly depths: readonly number[];
  /** The route as `req.route` names it, made on first use. */
  private named: MatchedRoute | undefined = undefined;
  private readonly chain: Chain;
  private readonly outer: RouteName | null;

  /** `outer`: the route (from the root) ending at the gate whose subtree this route is in; `null` at the top. */
  constructor(chain: Chain, outer: RouteName | null = null) {
    this.chain = chain;
    this.outer = outer;
    this.leaf = chain.leaf;
    this.handler = handlerOf(chain.leaf);
    this.depth = chain.tests.length;
    const { labels, parsers, depths } = variablesOf(chain);
    this.labels = labels;
    this.parsers = parsers;
    this.depths = depths;
    this.count = depths.length;
    this.depth0 = depths[0] ?? 0;
    this.depth1 = depths[1] ?? 0;
    this.depth2 = depths[2] ?? 0;
    this.parser0 = parsers[0] ?? Text;
    this.parser1 = parsers[1] ?? Text;
    this.parser2 = parsers[2] ?? Text;
  }

  /**
   * A new vars object for the guard or handler: the variables captured above it (`inherited`, from
   * a guard's route; `null` at the top) and this route's own, from the walk that chose the route,
   * of the raw path `text` (values are parsed per walk, never shared between requests).
   */
  bind(inherited: VarsRecord | null, source: WalkValues, text: string): VarsRecord {
    if (inherited !== null) return extendVars(inherited, this.labels, this.values(source, text));
    const shape = this.shape ?? (this.shape = varsShape(this.labels));
    // positional arguments for the common arities: no array per request
    switch (this.count) {
      case 0:
        return shape();
      case 1:
        return shape(source.value(this.depth0, this.parser0, text));
      case 2:
        return shape(source.value(this.depth0, this.parser0, text), source.value(this.depth1, this.parser1, text));
      case 3:
        return shape(
          source.value(this.depth0, this.parser0, text),
          source.value(this.depth1, this.parser1, text),
          source.value(this.depth2, this.parser2, text),
        );
      default:
        return shape(...this.values(source, text));
    }
  }

  /** The route from the root, as `req.route` names it (the gates' routes above it included). */
  get matchedRoute(): MatchedRoute {
    if (this.named === undefined) {
      const name = nameBelow(this.outer, this.chain);
      this.named = matchedRoute(name.method, name.tests, name.exact);
    }
    return this.named;
  }

  /** This route's name from the root: what the programs of the gate it ends at are named below. */
  get name(): RouteName {
    return nameBelow(this.outer, this.chain);
  }

  private values(source: WalkValues, text: string): unknown[] {
    return this.depths.map((depth, i) => source.value(depth, this.parsers[i]!, text));
  }
}
