import { alt, Bool, Day, Double, Int, Int64, Integer, method, openapi, pathVar, route, Text, UUID, Word } from "../src";
import { factOf } from "../src/parsers/facts";
import type { PathParser } from "../src/parsers/parser";
import { shadowed } from "../src/tools/shadow";

/*
 * What a path type tells the tools (src/parsers/facts.ts): a built-in's facts are kept beside the
 * parsers, a user's parser states its own, and a class extending a built-in reads as the built-in does.
 * The tools read them all through `factOf`; OpenAPI and the shadow report are checked end to end here.
 */

const info = { title: "t", version: "1" };

/** The OpenAPI schema of path variable `id` of a one-route app whose variable `parser` reads. */
function schemaOf(parser: PathParser<unknown>): unknown {
  const document = openapi(
    method(
      "GET",
      pathVar("id", parser, () => "ok"),
    ),
    { info },
  ) as unknown as {
    paths: Record<string, { get: { parameters: { schema: unknown }[] } }>;
  };
  return document.paths["/{id}"]!.get.parameters[0]!.schema;
}

test.each([
  ["Int", Int, Number, { type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }],
  ["Word", Word, Number, { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER }],
  ["Integer", Integer, BigInt, { type: "integer" }],
  ["Int64", Int64, BigInt, { type: "integer", format: "int64" }],
  ["Double", Double, Number, { type: "number" }],
  ["Bool", Bool, Boolean, { type: "boolean" }],
  ["Text", Text, String, { type: "string" }],
  ["UUID", UUID, String, { type: "string", format: "uuid" }],
  ["Day", Day, Day, { type: "string", format: "date" }],
] as [string, PathParser<unknown>, Function, object][])(
  "%s: its value type and schema",
  (_name, parser, valueType, schema) => {
    expect(factOf(parser, "valueType")).toBe(valueType);
    expect(factOf(parser, "openApiSchema")).toEqual(schema);
    expect(schemaOf(parser)).toEqual(schema);
  },
);

test("a parser's own facts win; a parser that states none has none (a string in OpenAPI)", () => {
  const Even = {
    name: "Even",
    parseUrlPiece: (piece: string) => Number(piece),
    toUrlPiece: String,
    openApiSchema: { type: "integer", multipleOf: 2 },
    includedIn: [Int],
  };
  expect(factOf(Even, "openApiSchema")).toEqual({ type: "integer", multipleOf: 2 });
  expect(factOf(Even, "includedIn")).toEqual([Int]);
  const Plain = { name: "Plain", parseUrlPiece: (piece: string) => piece, toUrlPiece: String };
  expect(factOf(Plain, "openApiSchema")).toBeUndefined();
  expect(factOf(Plain, "valueType")).toBeUndefined();
  expect(schemaOf(Plain)).toEqual({ type: "string" });
});

test("a class extending a built-in reads as the built-in, unless it says otherwise", () => {
  class Id extends Int {}
  class Named extends Int {
    static readonly openApiSchema = { type: "integer", minimum: 1 };
  }
  expect(factOf(Id, "openApiSchema")).toEqual(factOf(Int, "openApiSchema"));
  expect(factOf(Id, "includedIn")).toEqual([Int64]);
  expect(factOf(Named, "openApiSchema")).toEqual({ type: "integer", minimum: 1 });
  expect(schemaOf(Id)).toEqual(schemaOf(Int));
});

test("the shadow report follows the built-ins' inclusions: Word within Int within Int64, all within Text", () => {
  const verdicts = (first: PathParser<unknown>, second: PathParser<unknown>) =>
    shadowed(
      alt(
        pathVar("a", first, () => "1"),
        pathVar("b", second, () => "2"),
      ),
    ).map((s) => s.verdict);
  expect(verdicts(Int, Word)).toEqual(["unreachable"]);
  expect(verdicts(Int64, Word)).toEqual(["unreachable"]);
  expect(verdicts(Text, UUID)).toEqual(["unreachable"]);
  expect(verdicts(Word, Int)).toEqual([]);
  expect(verdicts(Bool, Int)).toEqual([]);
  expect(
    shadowed(
      alt(
        route("/u/id:Int", () => "1"),
        route("/u/id:Word", () => "2"),
      ),
    ).length,
  ).toBe(1);
});
