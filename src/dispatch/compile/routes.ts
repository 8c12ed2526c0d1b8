import type { PathParser } from "../../parsers/parser.js";
import type { Chain, Leaf } from "../../routes/walk.js";
import { extendVars, type Vars, type VarsConstructor, varsShape } from "../../vars.js";

/** Where a variable's value comes from when a route's variables are bound: the walk that chose the route. */
export interface ValueSource {
  /** Segment `depth` as `parser` reads it (the route's tests passed, so it accepts it). */
  value(depth: number, parser: PathParser<unknown>): unknown;
}

/** What running a route needs: its leaf, how many segments it consumes, and how to bind its variables. */
export class CompiledRoute {
  readonly leaf: Leaf;
  /** Segments consumed by the route's tests. */
  readonly depth: number;
  /** Per variable, in path order: its label, its parser, the depth of the segment it is captured from. */
  private readonly labels: string[] = [];
  private readonly parsers: PathParser<unknown>[] = [];
  private readonly depths: number[] = [];
  /** Makes the vars of this route alone (no guard above it captured any). */
  private readonly shape: VarsConstructor;

  constructor(chain: Chain) {
    this.leaf = chain.leaf;
    this.depth = chain.tests.length;
    chain.tests.forEach((test, depth) => {
      if (typeof test === "string") return;
      this.labels.push(test.label);
      this.parsers.push(test.parser);
      this.depths.push(depth);
    });
    this.shape = varsShape(this.labels);
  }

  /**
   * A new vars object for the guard or handler: the variables captured above it (`inherited`, from
   * a guard's route; `null` at the top) and this route's own, from the walk that chose the route
   * (values are parsed per walk, never shared between requests).
   */
  bind(inherited: Vars | null, source: ValueSource): Vars {
    if (inherited !== null) return extendVars(inherited, this.labels, this.values(source));
    const depths = this.depths;
    const parsers = this.parsers;
    // positional arguments for the common arities: no array per request
    switch (depths.length) {
      case 0:
        return new this.shape();
      case 1:
        return new this.shape(source.value(depths[0]!, parsers[0]!));
      case 2:
        return new this.shape(source.value(depths[0]!, parsers[0]!), source.value(depths[1]!, parsers[1]!));
      case 3:
        return new this.shape(source.value(depths[0]!, parsers[0]!), source.value(depths[1]!, parsers[1]!), source.value(depths[2]!, parsers[2]!));
      default:
        return new this.shape(...this.values(source));
    }
  }

  private values(source: ValueSource): unknown[] {
    return this.depths.map((depth, i) => source.value(depth, this.parsers[i]!));
  }
}
