import fc from "fast-check";
import { registerInstanceToPlain, stringifyJson } from "../src/json";

/*
 * stringifyJson writes plain data with JSON.stringify alone and everything else through its replacer
 * (bigints as exact numbers, class instances through the registered instanceToPlain, toJSON results
 * through both). Whichever way it takes, the text is the one the replacer writer gives: checked here
 * against that writer kept as the oracle, for all values mixing plain data with bigints, instances,
 * Dates, Maps, toJSON objects and null-prototype objects, with and without an instanceToPlain.
 */

/** The writer before the plain-data shortcut: every value through the replacer. */
function oracle(value: unknown, toPlain: ((value: object) => unknown) | undefined): string {
  const marks: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") {
      marks.push(v.toString());
      return `\u0000oracle-bigint-${marks.length - 1}`;
    }
    if (toPlain === undefined || typeof v !== "object" || v === null || Array.isArray(v)) return v;
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null) return v;
    if (v instanceof Date || v instanceof Map || v instanceof Set || ArrayBuffer.isView(v) || v instanceof RegExp)
      return v;
    return toPlain(v);
  });
  if (text === undefined) return "null";
  return text.replace(/"\\u0000oracle-bigint-(\d+)"/g, (_, i: string) => marks[Number(i)]!);
}

class Point {
  constructor(
    readonly x: unknown,
    readonly secret: unknown,
  ) {}
}

/** What a registered instanceToPlain makes of a `Point`: its `x` only (as `@Exclude() secret` would). */
const toPlain = (value: object): unknown => (value instanceof Point ? { point: value.x } : { other: true });

const leaf = fc.oneof(
  fc.string(),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt(),
  fc.constant(() => 1),
  fc.date({ noInvalidDate: true }),
);

const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("tree"), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 4 }), tie("tree"), { maxKeys: 4 }),
    fc
      .dictionary(fc.string({ maxLength: 4 }), tie("tree"), { maxKeys: 3 })
      .map((record) => Object.assign(Object.create(null) as object, record)),
    fc.tuple(tie("tree"), tie("tree")).map(([x, secret]) => new Point(x, secret)),
    tie("tree").map((inner) => ({ toJSON: () => inner })),
    fc.array(fc.tuple(fc.string({ maxLength: 3 }), tie("tree")), { maxLength: 2 }).map((entries) => new Map(entries)),
  ),
}));

describe.each([
  ["without instanceToPlain", undefined],
  ["with instanceToPlain", toPlain],
])("stringifyJson %s", (_, plain) => {
  beforeAll(() => registerInstanceToPlain(plain));
  afterAll(() => registerInstanceToPlain(undefined));

  test("writes every value as the replacer writer does", () => {
    fc.assert(
      fc.property(tree, (value) => {
        expect(stringifyJson(value)).toBe(oracle(value, plain));
      }),
      { numRuns: 3000 },
    );
  });

  test("a bigint, an instance or a toJSON deeper than the shortcut looks is still written by the replacer", () => {
    for (const inner of [12345678901234567890n, new Point(1, "hidden"), { toJSON: () => 7n }]) {
      let value: unknown = { inner };
      for (let i = 0; i < 40; i++) value = i % 2 === 0 ? [value] : { next: value };
      expect(stringifyJson(value)).toBe(oracle(value, plain));
    }
  });

  test("a toJSON every object inherits is still called, its result through the replacer", () => {
    // what it returns is not given to it again: an object that inherits nothing, a bigint as it is
    function toJSON(this: unknown): unknown {
      return typeof this === "bigint"
        ? this
        : Object.assign(Object.create(null) as object, { big: 12345678901234567890n });
    }
    Object.defineProperty(Object.prototype, "toJSON", { value: toJSON, configurable: true });
    try {
      for (const value of [{ a: 1 }, [{ b: "c" }]]) expect(stringifyJson(value)).toBe(oracle(value, plain));
      expect(stringifyJson({ a: 1 })).toBe('{"big":12345678901234567890}');
    } finally {
      delete (Object.prototype as { toJSON?: unknown }).toJSON;
    }
  });

  test("a cycle still throws (the pipeline's 500)", () => {
    const cycle: Record<string, unknown> = { a: [1, 2] };
    (cycle.a as unknown[]).push(cycle);
    expect(() => stringifyJson(cycle)).toThrow(TypeError);
  });
});
