import fc from "fast-check";
import {
  Bool,
  Day,
  Double,
  HttpError,
  Int,
  Int64,
  Integer,
  NoParse,
  parseSegment,
  queryParam,
  queryParams,
  headerParam,
  Text,
  UUID,
  Word,
  type PathParser,
} from "../src";
import { adapterInput } from "../src/input";
import { RequestContext } from "../src/request";

/*
 * queryParam, queryParams and headerParam read with the path parsers, for every value: what the parser
 * accepts is returned as the parser returns it, what it refuses is a 400 naming the field and the type.
 */

const parsers: readonly PathParser<unknown>[] = [Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day];

/** Strings the parsers care about, and arbitrary ones. */
const value = fc.oneof(
  fc.string(),
  fc.stringMatching(/^[+-]?\d{1,25}(\.\d{1,3})?([eE][+-]?\d{1,3})?$/),
  fc.constantFrom(
    "true",
    "FALSE",
    "yes",
    "",
    " 1",
    "2024-02-29",
    "2023-02-29",
    "0b7e4e4e-2b6c-4a59-9f35-5c41a5a1a4c2",
    "NaN",
  ),
  fc.uuid(),
);

/** Header values: what HTTP allows in one (visible ASCII and inner spaces, trimmed). */
const headerValue = value.map((v) => v.replace(/[^\x21-\x7e ]/g, "").trim());

function request(query: URLSearchParams, headers: Record<string, string> = {}): RequestContext {
  return new RequestContext(adapterInput({ method: "GET", url: `/?${query.toString()}`, headers }));
}

/** What the reader gave: the value, or the 400's field error. */
function outcome(read: () => unknown): unknown {
  try {
    return { value: read() };
  } catch (error) {
    if (!(error instanceof HttpError) || error.status !== 400) throw error;
    return { status: 400, error: (error.details?.["errors"] as unknown[])[0] };
  }
}

function expected(parser: PathParser<unknown>, where: "query" | "header", field: string, v: string): unknown {
  const parsed = parseSegment(parser, v);
  if (parsed !== NoParse) return { value: parsed };
  return {
    status: 400,
    error: { in: where, field, constraint: parser.name, message: `${JSON.stringify(v)} is not a valid ${parser.name}` },
  };
}

test("queryParam: the parser's value, or a 400 naming the parameter and the type", () => {
  fc.assert(
    fc.property(fc.constantFrom(...parsers), value, (parser, v) => {
      const req = request(
        new URLSearchParams([
          ["x", v],
          ["x", "second"],
        ]),
      );
      expect(outcome(() => queryParam(req, "x", parser))).toEqual(expected(parser, "query", "x", v));
    }),
    { seed: 1111, numRuns: 600 },
  );
});

test("queryParams: every value of the key, or a 400 for the first one the parser refuses", () => {
  fc.assert(
    fc.property(fc.constantFrom(...parsers), fc.array(value, { maxLength: 4 }), (parser, values) => {
      const req = request(new URLSearchParams(values.map((v): [string, string] => ["tag", v])));
      const refused = values.find((v) => parseSegment(parser, v) === NoParse);
      expect(outcome(() => queryParams(req, "tag", parser))).toEqual(
        refused === undefined
          ? { value: values.map((v) => parseSegment(parser, v)) }
          : expected(parser, "query", "tag", refused),
      );
    }),
    { seed: 2222, numRuns: 400 },
  );
});

test("headerParam: any case of the name; the parser's value, or a 400 naming the header", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...parsers),
      headerValue,
      fc.constantFrom("x-value", "X-Value", "X-VALUE"),
      (parser, v, sent) => {
        const req = request(new URLSearchParams(), { [sent]: v });
        expect(outcome(() => headerParam(req, "X-Value", parser))).toEqual(expected(parser, "header", "X-Value", v));
      },
    ),
    { seed: 3333, numRuns: 600 },
  );
});

test("absent: undefined when optional, else a 400 'required' naming the type", () => {
  for (const parser of parsers) {
    const req = request(new URLSearchParams("other=1"));
    expect(queryParam(req, "x", parser, { optional: true })).toBeUndefined();
    expect(headerParam(req, "x-h", parser, { optional: true })).toBeUndefined();
    expect(queryParams(req, "x", parser)).toEqual([]);
    expect(outcome(() => queryParam(req, "x", parser))).toEqual({
      status: 400,
      error: {
        in: "query",
        field: "x",
        constraint: "required",
        message: `the query parameter "x" is required (${parser.name})`,
      },
    });
  }
});
