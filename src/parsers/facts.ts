import { Bool } from "./bool.js";
import { Day } from "./day.js";
import { Double } from "./double.js";
import { Int, Int64, Integer, Word } from "./integral.js";
import type { PathParser } from "./parser.js";
import { Text } from "./text.js";
import { UUID } from "./uuid.js";

/*
 * What the built-in path types tell the tools (the OpenAPI document, the shadow report, the decorators'
 * type check): kept here rather than on the classes, so that an app that routes with them and runs no
 * tool (an edge bundle) does not carry it. A user's parser says the same on itself (`PathParser`);
 * `factOf` reads either.
 */

/** The facts a parser may state for the tools (see {@link PathParser}). */
export type ParserFacts = Pick<
  PathParser<unknown>,
  "valueType" | "includedIn" | "acceptsEverySegment" | "openApiSchema"
>;

const BUILT_IN = new Map<unknown, ParserFacts>([
  [Text, { valueType: String, acceptsEverySegment: true, openApiSchema: { type: "string" } }],
  [Double, { valueType: Number, includedIn: [Text], openApiSchema: { type: "number" } }],
  [
    Int,
    {
      valueType: Number,
      includedIn: [Int64],
      openApiSchema: { type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    },
  ],
  [
    Word,
    {
      valueType: Number,
      includedIn: [Int],
      openApiSchema: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    },
  ],
  [Integer, { valueType: BigInt, includedIn: [Double], openApiSchema: { type: "integer" } }],
  [Int64, { valueType: BigInt, includedIn: [Integer], openApiSchema: { type: "integer", format: "int64" } }],
  [Bool, { valueType: Boolean, includedIn: [Text], openApiSchema: { type: "boolean" } }],
  [UUID, { valueType: String, includedIn: [Text], openApiSchema: { type: "string", format: "uuid" } }],
  [Day, { valueType: Day, includedIn: [Text], openApiSchema: { type: "string", format: "date" } }],
]);

/**
 * What `parser` states as `fact`: its own (or inherited) static, else the built-in's it is or extends
 * (`class Id extends Int` reads as `Int` does, as when the facts were statics of the built-ins).
 */
export function factOf<K extends keyof ParserFacts>(parser: PathParser<unknown>, fact: K): ParserFacts[K] {
  const stated = parser[fact];
  if (stated !== undefined) return stated;
  for (let p: unknown = parser; p !== null && p !== undefined; p = Object.getPrototypeOf(p)) {
    const facts = BUILT_IN.get(p);
    if (facts !== undefined) return facts[fact];
  }
  return undefined;
}
