import type { PathParser } from "../../parsers/parser.js";
import { NO_VARS } from "../../request.js";
import type { Chain, Leaf } from "../../routes/walk.js";

/** Captured variables: a null-prototype object, so any label (even `__proto__`) is just a key. */
export type VarsObject = Readonly<Record<string, unknown>>;


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
  /** Per variable, one after the other: label, parser, depth of the segment it is captured from. */
  private readonly captures: (string | PathParser<unknown> | number)[] = [];

  constructor(chain: Chain) {
    this.leaf = chain.leaf;
    this.depth = chain.tests.length;
    chain.tests.forEach((test, depth) => {
      if (typeof test !== "string") this.captures.push(internalized(test.label), test.parser, depth);
    });
  }

  /**
   * The variables the handler sees: those captured above (`inherited`) and this route's own, from
   * the walk that chose the route (values are parsed per walk, never shared between requests).
   */
  bind(inherited: VarsObject, source: ValueSource): VarsObject {
    const captures = this.captures;
    if (captures.length === 0) return inherited;
    const vars = Object.create(null) as Record<string, unknown>;
    if (inherited !== NO_VARS) Object.assign(vars, inherited);
    for (let i = 0; i < captures.length; i += 3) {
      vars[captures[i] as string] = source.value(captures[i + 2] as number, captures[i + 1] as PathParser<unknown>);
    }
    return vars;
  }
}

/**
 * The same label as an internalized string. Labels are often slices of a pattern, and V8 stores a
 * non-internalized key into a null-prototype object through its slow runtime path (~15× slower).
 */
function internalized(label: string): string {
  return Object.keys({ [label]: true })[0]!;
}
