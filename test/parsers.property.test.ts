import fc from "fast-check";
import {
  Bool,
  Day,
  Double,
  Int,
  Int64,
  Integer,
  NoParse,
  parseSegment,
  Text,
  UUID,
  Word,
  type PathParser,
} from "../src";
import { parseInPlace, readsInPlace } from "../src/parsers/in-place";

/*
 * Properties of the parser table (DESIGN.md "Parsers"): each parser accepts exactly the strings of its
 * grammar and range, gives the value the grammar means, and round-trips with toUrlPiece. The oracles here
 * are written from the table (regex + BigInt/Number), not from the implementation.
 */

const RUNS = { numRuns: 1000 };

const SIGNED_DIGITS = /^[+-]?[0-9]+$/;
const DIGITS = /^[0-9]+$/;
const DOUBLE_GRAMMAR = /^[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Strings near the integer grammar: signs, digits (with leading zeros), and the usual wrong characters. */
const numberish = fc.oneof(
  fc.stringMatching(/^[+-]?0*[0-9]{1,25}$/),
  fc.string({ unit: fc.constantFrom("0", "1", "9", "+", "-", ".", "e", "E", " ", "_", "x", "a", "٣"), maxLength: 12 }),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.string(),
);

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const abs = (b: bigint): bigint => (b < 0n ? -b : b);

describe("Int", () => {
  test("accepts exactly [+-]?digits within the safe-integer range, with the decimal value", () => {
    fc.assert(
      fc.property(numberish, (s) => {
        const parsed = Int.parseUrlPiece(s);
        const expected = SIGNED_DIGITS.test(s) && abs(BigInt(s)) <= MAX_SAFE ? Number(BigInt(s)) : NoParse;
        expect(parsed).toBe(expected);
      }),
      RUNS,
    );
  });
  test("round-trips every safe integer through toUrlPiece", () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const piece = Int.toUrlPiece(n);
        expect(piece).toMatch(SIGNED_DIGITS);
        expect(Int.parseUrlPiece(piece)).toBe(n === 0 ? 0 : n);
      }),
      RUNS,
    );
  });
  test("never produces -0", () => {
    fc.assert(fc.property(fc.stringMatching(/^-0{1,5}$/), (s) => Object.is(Int.parseUrlPiece(s), 0)));
  });
});

describe("Word", () => {
  test("accepts exactly unsigned digits within the safe-integer range", () => {
    fc.assert(
      fc.property(numberish, (s) => {
        const expected = DIGITS.test(s) && BigInt(s) <= MAX_SAFE ? Number(BigInt(s)) : NoParse;
        expect(Word.parseUrlPiece(s)).toBe(expected);
      }),
      RUNS,
    );
  });
  test("round-trips every non-negative safe integer", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (n) => Word.parseUrlPiece(Word.toUrlPiece(n)) === n),
      RUNS,
    );
  });
});

describe("Int64", () => {
  const MIN = -(2n ** 63n);
  const MAX = 2n ** 63n - 1n;
  test("accepts exactly [+-]?digits within −2^63 … 2^63−1 (no wrap-around)", () => {
    const near = fc.oneof(
      numberish,
      fc.bigInt({ min: MIN - 1000n, max: MIN + 1000n }).map(String),
      fc.bigInt({ min: MAX - 1000n, max: MAX + 1000n }).map(String),
    );
    fc.assert(
      fc.property(near, (s) => {
        const expected = SIGNED_DIGITS.test(s) && BigInt(s) >= MIN && BigInt(s) <= MAX ? BigInt(s) : NoParse;
        expect(Int64.parseUrlPiece(s)).toBe(expected);
      }),
      RUNS,
    );
  });
  test("round-trips every 64-bit integer, also with leading zeros", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN, max: MAX }), fc.nat(5), (b, zeros) => {
        expect(Int64.parseUrlPiece(Int64.toUrlPiece(b))).toBe(b);
        const padded = (b < 0n ? "-" : "") + "0".repeat(zeros) + abs(b).toString();
        expect(Int64.parseUrlPiece(padded)).toBe(b);
      }),
      RUNS,
    );
  });
});

describe("Integer", () => {
  test("accepts exactly [+-]?digits, unbounded", () => {
    fc.assert(
      fc.property(numberish, (s) => {
        expect(Integer.parseUrlPiece(s)).toBe(SIGNED_DIGITS.test(s) ? BigInt(s) : NoParse);
      }),
      RUNS,
    );
  });
  test("round-trips any bigint, however large", () => {
    const big = fc.oneof(fc.bigInt(), fc.bigInt({ min: -(10n ** 200n), max: 10n ** 200n }));
    fc.assert(
      fc.property(big, (b) => Integer.parseUrlPiece(Integer.toUrlPiece(b)) === b),
      RUNS,
    );
  });
});

describe("Double", () => {
  const doubleish = fc.oneof(
    numberish,
    fc.stringMatching(/^[+-]?[0-9]{0,4}(\.[0-9]{0,3})?([eE][+-]?[0-9]{0,4})?$/),
    fc.constantFrom("NaN", "Infinity", "-Infinity", ".5", "5.", "1e", "0x10", "1e400", "-1e400", "1e-400"),
  );
  test("agrees with the grammar [+-]?digits(.digits)?([eE][+-]?digits)? and reads the decimal value", () => {
    fc.assert(
      fc.property(doubleish, (s) => {
        const parsed = Double.parseUrlPiece(s);
        if (DOUBLE_GRAMMAR.test(s)) expect(parsed).toBe(Number(s));
        else expect(parsed).toBe(NoParse);
      }),
      RUNS,
    );
  });
  test("round-trips every finite double (−0 reads back as 0)", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        const piece = Double.toUrlPiece(d);
        expect(piece).toMatch(DOUBLE_GRAMMAR);
        expect(Double.parseUrlPiece(piece)).toBe(d === 0 ? 0 : d);
      }),
      RUNS,
    );
  });
  test("overflow gives ±Infinity, never NoParse", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.integer({ min: 309, max: 100000 }), (negative, exp) => {
        expect(Double.parseUrlPiece(`${negative ? "-" : ""}9e${exp}`)).toBe(negative ? -Infinity : Infinity);
      }),
    );
  });
});

describe("Bool", () => {
  test("accepts exactly true/false in any ASCII letter case", () => {
    const caseMix = fc
      .constantFrom("true", "false")
      .chain((w) =>
        fc
          .array(fc.boolean(), { minLength: w.length, maxLength: w.length })
          .map((ups) => [...w].map((c, i) => (ups[i] ? c.toUpperCase() : c)).join("")),
      );
    fc.assert(
      fc.property(
        fc.oneof(
          caseMix,
          fc.string(),
          fc.string({ unit: fc.constantFrom("t", "r", "u", "e", "T", "f", "a", "l", "s", "1", " "), maxLength: 6 }),
        ),
        (s) => {
          const lower = /^[A-Za-z]*$/.test(s) ? s.toLowerCase() : null;
          const expected = lower === "true" ? true : lower === "false" ? false : NoParse;
          expect(Bool.parseUrlPiece(s)).toBe(expected);
        },
      ),
      RUNS,
    );
  });
  test("round-trips", () => {
    fc.assert(fc.property(fc.boolean(), (b) => Bool.parseUrlPiece(Bool.toUrlPiece(b)) === b));
  });
});

describe("Text", () => {
  test("accepts every string as itself and round-trips", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(Text.parseUrlPiece(s)).toBe(s);
        expect(Text.toUrlPiece(s)).toBe(s);
      }),
      RUNS,
    );
  });
});

describe("UUID", () => {
  const uuidish = fc.oneof(
    fc.uuid(),
    fc.uuid().map((u) => u.toUpperCase()),
    fc.uuid().map((u) => `{${u}}`),
    fc.uuid().map((u) => u.replace(/-/g, "")),
    fc
      .tuple(fc.uuid(), fc.nat(35), fc.constantFrom("g", "-", "0", "A", " "))
      .map(([u, i, c]) => u.slice(0, i) + c + u.slice(i + 1)),
    fc.string(),
  );
  test("accepts exactly 36 chars with hyphens at 8/13/18/23 and hex elsewhere, lower-cased", () => {
    fc.assert(
      fc.property(uuidish, (s) => {
        expect(UUID.parseUrlPiece(s)).toBe(UUID_SHAPE.test(s) ? s.toLowerCase() : NoParse);
      }),
      RUNS,
    );
  });
  test("round-trips every UUID", () => {
    fc.assert(fc.property(fc.uuid(), (u) => UUID.parseUrlPiece(UUID.toUrlPiece(u)) === u));
  });
});

describe("Day", () => {
  /** Independent oracle: is (y, m, d) a real date of the proleptic Gregorian calendar? (via Date, |y| small) */
  function realDate(y: number, m: number, d: number): boolean {
    if (m < 1 || m > 12 || d < 1) return false;
    const date = new Date(0);
    date.setUTCFullYear(y, m - 1, d);
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }
  const pad = (n: number, w: number): string => String(Math.abs(n)).padStart(w, "0");
  const show = (y: number, m: number, d: number): string => `${y < 0 ? "-" : ""}${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;

  test("accepts YYYY-MM-DD exactly when the date is real", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -9999, max: 99999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const parsed = Day.parseUrlPiece(show(y, m, d));
          if (realDate(y, m, d)) {
            expect(parsed).toBeInstanceOf(Day);
            expect(parsed).toMatchObject({ year: y, month: m, day: d });
          } else {
            expect(parsed).toBe(NoParse);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  test("the last days of each month: Feb 29 exactly in Gregorian leap years, 30/31 by month", () => {
    const year = fc.oneof(
      fc.integer({ min: -9999, max: 99999 }),
      fc.integer({ min: -99, max: 999 }).map((k) => k * 100),
      fc.integer({ min: -24, max: 249 }).map((k) => k * 400),
    );
    fc.assert(
      fc.property(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 28, max: 31 }), (y, m, d) => {
        const parsed = Day.parseUrlPiece(show(y, m, d));
        expect(parsed === NoParse ? "rejected" : "accepted").toBe(realDate(y, m, d) ? "accepted" : "rejected");
      }),
      { numRuns: 2000 },
    );
  });

  test("round-trips every valid date: toUrlPiece(parse(s)) === s", () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date("-009999-01-01T00:00:00Z"),
          max: new Date("+099999-12-31T00:00:00Z"),
          noInvalidDate: true,
        }),
        (date) => {
          const s = show(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
          fc.pre(s !== "-0000-01-01");
          const day = Day.parseUrlPiece(s);
          expect(day).toBeInstanceOf(Day);
          expect(Day.toUrlPiece(day as Day)).toBe(s);
          const midnight = new Date(0);
          midnight.setUTCFullYear(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
          expect((day as Day).toDate().getTime()).toBe(midnight.getTime());
        },
      ),
      RUNS,
    );
  });

  test("rejects dates not written YYYY-MM-DD with two-digit month and day", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        (y, m, d) => {
          expect(Day.parseUrlPiece(`${y}-${m}-${d}`)).toBe(NoParse);
          expect(Day.parseUrlPiece(`${y}${pad(m, 2)}${pad(d, 2)}`)).toBe(NoParse);
          expect(Day.parseUrlPiece(`${String(y).slice(1)}-${pad(m, 2)}-${pad(d, 2)}`)).toBe(NoParse);
        },
      ),
    );
  });
});

describe("all parsers", () => {
  const parsers: Record<string, PathParser<unknown>> = { Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day };
  test("parseSegment never throws, for any parser and any string (lone surrogates included)", () => {
    const anything = fc.oneof(
      fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
      fc.string({ unit: "binary", maxLength: 2000 }),
      numberish,
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(parsers)), anything, (name, s) => {
        parseSegment(parsers[name]!, s);
        parsers[name]!.parseUrlPiece(s);
      }),
      RUNS,
    );
  });
});

describe("parsing in place (the compiled walk's typed segments)", () => {
  /** A subclass that keeps the built-in parse, and one that overrides it. */
  class KeptInt extends Int {}
  class EvenInt extends Int {
    static override parseUrlPiece(piece: string): number | typeof NoParse {
      const value = Int.parseUrlPiece(piece);
      return value !== NoParse && value % 2 === 0 ? value : NoParse;
    }
  }

  test("Int and Word (and subclasses keeping their parse) read a piece of a longer string exactly as their parseUrlPiece reads the slice", () => {
    fc.assert(
      fc.property(
        fc.string(),
        numberish,
        fc.string(),
        fc.constantFrom<PathParser<unknown>>(Int, Word, KeptInt),
        (before, piece, after, parser) => {
          const text = `${before}${piece}${after}`;
          expect(readsInPlace(parser)).toBe(true);
          expect(parseInPlace(parser, text, before.length, before.length + piece.length)).toBe(
            parser.parseUrlPiece(piece),
          );
        },
      ),
      RUNS,
    );
  });

  test("every other parser, and a subclass overriding the parse, is given the piece as a string", () => {
    for (const parser of [Text, Double, Int64, Integer, Bool, Day, UUID, EvenInt] as PathParser<unknown>[])
      expect(readsInPlace(parser)).toBe(false);
  });
});
