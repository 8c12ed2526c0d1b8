import { NONE } from "../answers.js";

/**
 * Whole raw paths whose first route is known at compile time (a fully static route), found with
 * one probe. A `Map` would hash the whole of every fresh request path, hit or miss, which costs as
 * much as walking it; here the slot comes from the length and three characters, and a hit is one
 * native string compare.
 */
export class StaticPaths {
  /** `[path, route, path, route, …]`, open-addressed; `undefined` ends a probe sequence. */
  private readonly table: (string | number | undefined)[];
  private readonly mask: number;
  /** 32 − log2(slots): the top bits of the mixed key pick the slot. */
  private readonly shift: number;
  /** 1 at the lengths some key has: most request paths skip the probe on their length alone. */
  private readonly lengths: Uint8Array;
  /** The longest key's length (`lengths.length - 1`, kept as a field: V8 loaded that length polymorphically). */
  private readonly longest: number;

  constructor(paths: ReadonlyMap<string, number>) {
    // at most a quarter full, so a miss mostly ends at its first slot
    let bits = 1;
    while (1 << bits < paths.size * 4) bits++;
    const capacity = 1 << bits;
    this.shift = 32 - bits;
    this.mask = capacity * 2 - 1;
    this.table = new Array<string | number | undefined>(capacity * 2).fill(undefined);
    let longest = 0;
    for (const path of paths.keys()) longest = Math.max(longest, path.length);
    this.longest = longest;
    this.lengths = new Uint8Array(longest + 1);
    for (const [path, route] of paths) {
      this.lengths[path.length] = 1;
      let slot = this.slotOf(path);
      while (this.table[slot] !== undefined) slot = (slot + 2) & this.mask;
      this.table[slot] = path;
      this.table[slot + 1] = route;
    }
  }

  /** Every path and its route, in the table's order (for the printer). */
  entries(): [string, number][] {
    const out: [string, number][] = [];
    for (let slot = 0; slot < this.table.length; slot += 2)
      if (this.table[slot] !== undefined) out.push([this.table[slot] as string, this.table[slot + 1] as number]);
    return out;
  }

  /** The route known for the raw path `path`, or NONE. */
  get(path: string): number {
    const length = path.length;
    if (length > this.longest || this.lengths[length] === 0) return NONE;
    const table = this.table;
    for (let slot = this.slotOf(path); ; slot = (slot + 2) & this.mask) {
      const known = table[slot];
      if (known === undefined) return NONE;
      if (known === path) return table[slot + 1] as number;
    }
  }

  /** Every key starts with `/`: hashes the second, middle and last characters and the length. */
  private slotOf(path: string): number {
    const length = path.length;
    // never read past the end: V8 would deoptimize and then compile a slower generic charCodeAt
    if (length < 2) return 0;
    const key =
      (path.charCodeAt(1) << 24) ^ (path.charCodeAt(length >> 1) << 16) ^ (path.charCodeAt(length - 1) << 8) ^ length;
    // a multiplicative mix spreads keys that differ in any of these over the low bits
    return (Math.imul(key, 0x9e3779b1) >>> this.shift) << 1;
  }
}
