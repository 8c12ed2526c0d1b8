import {
  alt,
  Bool,
  Day,
  Double,
  inject,
  Int,
  Int64,
  Integer,
  lookupPathType,
  NoParse,
  parseSegment,
  pathEnd,
  pathVar,
  route,
  registeredPathTypeNames,
  registerPathType,
  Text,
  UUID,
  Word,
  type PathParser,
} from "../src";

/*
 * DESIGN.md "Parsers": one describe per row of the parser table, with the inputs the row names as
 * accepted and as rejected, then the same through a route (a rejected segment is a mismatch → 404).
 */

type Row = {
  parser: PathParser<unknown>;
  accepts: ReadonlyArray<readonly [string, unknown]>;
  rejects: readonly string[];
};

const MAX = "9007199254740991"; // 2^53 − 1
const PAST_MAX = "9007199254740992";

const TABLE: Record<string, Row> = {
  Int: {
    parser: Int,
    accepts: [
      ["0", 0],
      ["42", 42],
      ["-7", -7],
      ["+7", 7],
      ["007", 7],
      ["-007", -7],
      [MAX, Number.MAX_SAFE_INTEGER],
      [`-${MAX}`, -Number.MAX_SAFE_INTEGER],
      ["000000000000000000000000001", 1],
    ],
    rejects: [
      " 1",
      "1 ",
      "5.0",
      "1e3",
      "0x1F",
      "1F",
      "1_000",
      "",
      "+",
      "-",
      "+-1",
      "--1",
      PAST_MAX,
      `-${PAST_MAX}`,
      "١٢",
      "12a",
      "NaN",
      "Infinity",
    ],
  },
  Int64: {
    parser: Int64,
    accepts: [
      ["0", 0n],
      ["-7", -7n],
      ["+7", 7n],
      ["007", 7n],
      ["9223372036854775807", 2n ** 63n - 1n],
      ["-9223372036854775808", -(2n ** 63n)],
      ["0009223372036854775807", 2n ** 63n - 1n],
      ["-0009223372036854775808", -(2n ** 63n)],
      [PAST_MAX, 2n ** 53n],
    ],
    rejects: [
      "9223372036854775808",
      "-9223372036854775809",
      "18446744073709551616",
      "99999999999999999999",
      " 1",
      "5.0",
      "1e3",
      "0x1F",
      "1_000",
      "",
      "-",
      "+",
    ],
  },
  Integer: {
    parser: Integer,
    accepts: [
      ["0", 0n],
      ["-7", -7n],
      ["+7", 7n],
      ["007", 7n],
      ["123456789012345678901234567890", 123456789012345678901234567890n],
      ["-123456789012345678901234567890", -123456789012345678901234567890n],
    ],
    rejects: [" 1", "1 ", "5.0", "1e3", "0x1F", "1_000", "", "+", "-", "12a"],
  },
  Word: {
    parser: Word,
    accepts: [
      ["0", 0],
      ["42", 42],
      ["007", 7],
      [MAX, Number.MAX_SAFE_INTEGER],
    ],
    // departure: Haskell's Word is 64-bit; JS numbers are exact only up to 2^53 − 1, so beyond that is refused
    rejects: ["+1", "-1", "-0", "+0", PAST_MAX, "18446744073709551615", " 1", "5.0", "1e3", "0x1F", "1_000", ""],
  },
  Double: {
    parser: Double,
    accepts: [
      ["0", 0],
      ["1.5", 1.5],
      ["-1.5", -1.5],
      ["+2", 2],
      ["007.25", 7.25],
      ["1e3", 1000],
      ["1E3", 1000],
      ["1e+3", 1000],
      ["1.5e-3", 0.0015],
      ["1e400", Infinity],
      ["-1e400", -Infinity],
      // departure: correctly rounded, where Haskell's text gives 1.2000000000000002 and 0
      ["12e-1", 1.2],
      ["1e-320", 1e-320],
    ],
    rejects: [
      ".5",
      "5.",
      "1e",
      "1e+",
      "NaN",
      "Infinity",
      "-Infinity",
      "0x10",
      " 1",
      "1 ",
      "",
      "+",
      "1.2.3",
      "e5",
      "1e5.5",
      "+-1",
      "1,5",
      "1_0",
    ],
  },
  Bool: {
    parser: Bool,
    accepts: [
      ["true", true],
      ["false", false],
      ["TRUE", true],
      ["False", false],
      ["tRuE", true],
    ],
    rejects: ["1", "0", "yes", "no", "", "t", "truee", " true", "true ", "falsy"],
  },
  Text: {
    parser: Text,
    accepts: [
      ["", ""],
      ["hello", "hello"],
      ["a b/c", "a b/c"],
      ["%zz", "%zz"],
      ["__proto__", "__proto__"],
    ],
    rejects: [],
  },
  UUID: {
    parser: UUID,
    accepts: [
      ["123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
      ["123E4567-E89B-12D3-A456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
      ["00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-000000000000"],
    ],
    rejects: [
      "{123e4567-e89b-12d3-a456-426614174000}",
      "123e4567e89b12d3a456426614174000",
      "123e4567-e89b-12d3-a456-42661417400",
      "123e4567-e89b-12d3-a456-4266141740000",
      "g23e4567-e89b-12d3-a456-426614174000",
      "123e4567e-89b-12d3-a456-426614174000",
      "123e4567-e89b-12d3-a456_426614174000",
      "",
    ],
  },
  Day: {
    parser: Day,
    accepts: [
      ["2024-01-05", Day.of(2024, 1, 5)],
      ["2024-02-29", Day.of(2024, 2, 29)],
      ["2000-02-29", Day.of(2000, 2, 29)],
      ["1999-12-31", Day.of(1999, 12, 31)],
      ["0001-01-01", Day.of(1, 1, 1)],
      ["12024-03-01", Day.of(12024, 3, 1)],
      ["+2024-01-05", Day.of(2024, 1, 5)],
      ["-0044-03-15", Day.of(-44, 3, 15)],
    ],
    rejects: [
      "2023-02-29",
      "1900-02-29",
      "2024-04-31",
      "2024-13-01",
      "2024-00-10",
      "2024-01-00",
      "2024-01-32",
      "2024-1-5",
      "20240105",
      "024-01-01",
      "2024-01-05T00:00",
      "2024/01/05",
      " 2024-01-05",
      "",
    ],
  },
};

function expectParsed(actual: unknown, expected: unknown): void {
  if (expected instanceof Day) {
    expect(actual).toBeInstanceOf(Day);
    expect((actual as Day).equals(expected)).toBe(true);
    expect(String(actual)).toBe(String(expected));
  } else {
    expect(actual).toBe(expected);
  }
}

for (const [name, row] of Object.entries(TABLE)) {
  describe(`DESIGN parser table row ${name}`, () => {
    if (row.accepts.length > 0) {
      test.each(row.accepts)(`${name} accepts %j`, (piece, value) => {
        expectParsed(row.parser.parseUrlPiece(piece), value);
      });
    }
    if (row.rejects.length > 0) {
      test.each(row.rejects.map((r) => [r]))(`${name} rejects %j`, (piece) => {
        expect(row.parser.parseUrlPiece(piece)).toBe(NoParse);
      });
    }

    test(`${name}: through a route, accepted segments reach the handler and rejected ones are a 404`, async () => {
      const seen: unknown[] = [];
      const tree = pathVar(
        "v",
        row.parser,
        pathEnd((request) => {
          seen.push(request.vars.v);
          return "hit";
        }),
      );
      for (const [piece, value] of row.accepts) {
        seen.length = 0;
        const response = await inject(tree, { url: `/${encodeURIComponent(piece)}` });
        // an empty Text segment has no spelling of its own as the only segment: `/` has no segments
        if (piece === "") continue;
        expect(response.status).toBe(200);
        expect(seen).toHaveLength(1);
        expectParsed(seen[0], value);
      }
      for (const piece of row.rejects) {
        if (piece === "") continue;
        const response = await inject(tree, { url: `/${encodeURIComponent(piece)}` });
        expect(response).toEqual(expect.objectContaining({ status: 404, body: "" }));
      }
    });
  });
}

describe("Integer is bounded to Integer.maxDigits significant digits, so a long segment is a quick mismatch", () => {
  test("up to the bound it parses; one digit more, or a million, is NoParse; leading zeros do not count", () => {
    expect(Integer.maxDigits).toBe(4096);
    expect(Integer.parseUrlPiece("9".repeat(Integer.maxDigits))).toBe(10n ** 4096n - 1n);
    expect(Integer.parseUrlPiece(`-${"9".repeat(Integer.maxDigits)}`)).toBe(-(10n ** 4096n - 1n));
    expect(Integer.parseUrlPiece(`1${"0".repeat(Integer.maxDigits)}`)).toBe(NoParse);
    expect(Integer.parseUrlPiece(`-${"9".repeat(1_000_000)}`)).toBe(NoParse);
    expect(Integer.parseUrlPiece(`-${"0".repeat(1_000_000)}7`)).toBe(-7n);
  });

  test("through a route: a million digits falls through to the next alternative; in range echoes exactly as JSON", async () => {
    const tree = alt(
      route("/n/n:Integer", (req) => ({ n: req.vars.n })),
      route("/n/s:Text", (req) => `text of ${req.vars.s.length}`),
    );
    const million = "7".repeat(1_000_000);
    const long = await inject(tree, { url: `/n/${million}` });
    expect(long.status).toBe(200);
    expect(long.body).toBe("text of 1000000");
    const bound = "7".repeat(Integer.maxDigits);
    expect((await inject(tree, { url: `/n/${bound}` })).body).toBe(`{"n":${bound}}`);
  });
});

describe("Text accepts the empty segment through a route", () => {
  test("`/a/` gives Text the empty segment", async () => {
    const tree = alt((request) => ({ rest: request.rest }));
    const got: unknown[] = [];
    const route = pathVar(
      "first",
      Text,
      pathVar(
        "second",
        Text,
        pathEnd((request) => {
          got.push(request.vars.first, request.vars.second);
          return "ok";
        }),
      ),
    );
    expect((await inject(route, { url: "/a/" })).status).toBe(200);
    expect(got).toEqual(["a", ""]);
    expect((await inject(tree, { url: "/" })).body).toBe('{"rest":[]}');
  });
});

describe("toUrlPiece is the inverse of parseUrlPiece on the table's canonical values", () => {
  test("integral, double, bool, text, uuid and day", () => {
    expect(Int.toUrlPiece(-42)).toBe("-42");
    expect(Int.parseUrlPiece(Int.toUrlPiece(-42))).toBe(-42);
    expect(Int64.toUrlPiece(2n ** 63n - 1n)).toBe("9223372036854775807");
    expect(Integer.toUrlPiece(-(10n ** 30n))).toBe(`-1${"0".repeat(30)}`);
    expect(Word.toUrlPiece(7)).toBe("7");
    expect(Double.parseUrlPiece(Double.toUrlPiece(0.1))).toBe(0.1);
    expect(Bool.toUrlPiece(true)).toBe("true");
    expect(Bool.toUrlPiece(false)).toBe("false");
    expect(Text.toUrlPiece("x y")).toBe("x y");
    expect(UUID.toUrlPiece("123e4567-e89b-12d3-a456-426614174000")).toBe("123e4567-e89b-12d3-a456-426614174000");
    expect(Day.toUrlPiece(Day.of(2024, 1, 5))).toBe("2024-01-05");
    expect(Day.toUrlPiece(Day.of(-44, 3, 15))).toBe("-0044-03-15");
    expect(Day.toUrlPiece(Day.of(12024, 3, 1))).toBe("12024-03-01");
  });
});

describe("Day values", () => {
  test("Day.of rejects dates that do not exist", () => {
    expect(() => Day.of(2023, 2, 29)).toThrow(RangeError);
    expect(() => Day.of(2024, 13, 1)).toThrow(RangeError);
    expect(() => Day.of(2024, 1, 0)).toThrow(RangeError);
    expect(() => Day.of(2024.5, 1, 1)).toThrow(RangeError);
  });
  test("prints as YYYY-MM-DD through String and JSON.stringify", () => {
    const day = Day.of(2024, 3, 9);
    expect(String(day)).toBe("2024-03-09");
    expect(JSON.stringify({ day })).toBe('{"day":"2024-03-09"}');
  });
  test("toDate is midnight UTC of that day", () => {
    expect(Day.of(2024, 3, 9).toDate().toISOString()).toBe("2024-03-09T00:00:00.000Z");
    expect(Day.of(45, 6, 7).toDate().toISOString()).toBe("0045-06-07T00:00:00.000Z");
  });
  test("year 0 and -0 are the same day", () => {
    const a = Day.parseUrlPiece("0000-01-01");
    const b = Day.parseUrlPiece("-0000-01-01");
    expect(a).toBeInstanceOf(Day);
    expect(b).toBeInstanceOf(Day);
    expect((a as Day).equals(b as Day)).toBe(true);
    expect(String(b)).toBe("0000-01-01");
  });
});

describe("parseSegment and the registry", () => {
  test("a parser that throws has not parsed the segment", () => {
    const Throws: PathParser<number> = {
      name: "Throws",
      parseUrlPiece: () => {
        throw new Error("no");
      },
      toUrlPiece: String,
    };
    expect(parseSegment(Throws, "1")).toBe(NoParse);
    expect(parseSegment(Int, "1")).toBe(1);
    expect(parseSegment(Int, "x")).toBe(NoParse);
  });

  test("a throwing parser in a route is a mismatch, the next alternative answers", async () => {
    class Boom {
      static parseUrlPiece(): never {
        throw new Error("boom");
      }
      static toUrlPiece(): string {
        return "";
      }
    }
    const tree = alt(
      pathVar("b", Boom, () => "boom"),
      pathVar("t", Text, () => "text"),
    );
    expect((await inject(tree, { url: "/x" })).body).toBe("text");
  });

  test("every built-in type of the table is registered under its name", () => {
    const builtIns: Record<string, PathParser<unknown>> = { Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day };
    for (const [name, parser] of Object.entries(builtIns)) expect(lookupPathType(name)).toBe(parser);
    expect(registeredPathTypeNames()).toEqual(expect.arrayContaining(Object.keys(builtIns)));
    expect(lookupPathType("NoSuchType")).toBeUndefined();
    expect(lookupPathType("int")).toBeUndefined();
  });

  test("registerPathType: a user class under its name; a taken name or a bad name is an error", () => {
    class ParsersTestSlug {
      static parseUrlPiece(piece: string): string | NoParse {
        return /^[a-z-]+$/.test(piece) ? piece : NoParse;
      }
      static toUrlPiece(value: string): string {
        return value;
      }
    }
    registerPathType(ParsersTestSlug);
    expect(lookupPathType("ParsersTestSlug")).toBe(ParsersTestSlug);
    expect(() => registerPathType(ParsersTestSlug)).not.toThrow();
    expect(() => registerPathType(Int, "ParsersTestSlug")).toThrow(TypeError);
    expect(() => registerPathType(ParsersTestSlug, "Int")).toThrow(TypeError);
    expect(() => registerPathType(ParsersTestSlug, "not a name")).toThrow(TypeError);
    expect(() => registerPathType(ParsersTestSlug, "")).toThrow(TypeError);
    expect(lookupPathType("Int")).toBe(Int);
  });

  test("registerPathType: a value that is no parser is refused when registered (a pattern naming it builds no pathVar check)", () => {
    const schema = { "~standard": { version: 1, vendor: "x", validate: (value: unknown) => ({ value }) } };
    expect(() => registerPathType({ name: "ParsersTestNothing" } as never)).toThrow(
      "registerPathType: expected a parser (an object or class with parseUrlPiece; a Standard Schema becomes one with schemaParser), got object",
    );
    expect(() => registerPathType(schema as never, "ParsersTestSchema")).toThrow(/becomes one with schemaParser/);
    expect(() => registerPathType(null as never, "ParsersTestNull")).toThrow(/got null$/);
    expect(lookupPathType("ParsersTestNothing")).toBeUndefined();
    expect(lookupPathType("ParsersTestSchema")).toBeUndefined();
  });
});
