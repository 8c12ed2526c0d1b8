import { processGlobal } from "../process-global.js";
import { Bool } from "./bool.js";
import { Day } from "./day.js";
import { Double } from "./double.js";
import { Int, Int64, Integer, Word } from "./integral.js";
import { isParser, type PathParser } from "./parser.js";
import { Text } from "./text.js";
import { UUID } from "./uuid.js";

/**
 * Maps the type names patterns use to the values they produce, so `"/u/id:Int"` types `vars.id` as
 * `number`. Register your own types here by declaration merging:
 * ```ts
 * declare module "switchyard-router" { interface PathTypes { UserId: UserId } }
 * ```
 */
export interface PathTypes {
  Int: number;
  Int64: bigint;
  Integer: bigint;
  Word: number;
  Double: number;
  Bool: boolean;
  Text: string;
  UUID: string;
  Day: Day;
}

// Each copy of the package (ES module and CommonJS builds) has its own built-ins, so `route("/d:Day")`
// gives values of the `Day` class that copy exports; user types are one registry for the whole process.
// The built-ins declare `static name`, so their names survive a minifier renaming the classes.
const builtIns = new Map<string, PathParser<unknown>>(
  [Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day].map((p) => [p.name, p]),
);
const userTypes = processGlobal("pathTypes", () => new Map<string, PathParser<unknown>>());

/** A type name usable in patterns: letters, digits and `_`, starting with a letter or `_`. */
const TYPE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Makes `parser` usable in patterns as `label:name` (the parser's own name by default: in a minified
 * bundle, a class's name is the minifier's unless the class declares `static readonly name`).
 * Registering the same parser twice is harmless; a different parser under a taken name, or a value that
 * is no parser, is an error.
 */
export function registerPathType<T>(parser: PathParser<T>, name: string = parser?.name): void {
  // checked here, not when a pattern names it: patterns build their nodes without `pathVar`'s checks
  if (!isParser(parser)) {
    throw new TypeError(
      `registerPathType: expected a parser (an object or class with parseUrlPiece; a Standard Schema becomes one with schemaParser), got ${parser === null ? "null" : typeof parser}`,
    );
  }
  if (name === "") {
    throw new TypeError(
      'registerPathType: the parser has no name; pass one (registerPathType(parser, "Slug")) or declare it on the class (static readonly name = "Slug")',
    );
  }
  if (!TYPE_NAME.test(name)) {
    throw new TypeError(`registerPathType: ${JSON.stringify(name)} is not a type name (letters, digits, _)`);
  }
  const existing = lookupPathType(name);
  if (existing !== undefined && existing !== parser) {
    throw new TypeError(`registerPathType: the type name "${name}" is already registered to another parser`);
  }
  if (!builtIns.has(name)) userTypes.set(name, parser as PathParser<unknown>);
}

/** The parser registered under `name`, if any. */
export function lookupPathType(name: string): PathParser<unknown> | undefined {
  return builtIns.get(name) ?? userTypes.get(name);
}

/** Every registered type name, built-ins first. */
export function registeredPathTypeNames(): string[] {
  return [...builtIns.keys(), ...userTypes.keys()];
}
