import { Bool } from "./bool.js";
import { Day } from "./day.js";
import { Double } from "./double.js";
import { Int, Int64, Integer, Word } from "./integral.js";
import type { PathParser } from "./parser.js";
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

const builtIns: readonly PathParser<unknown>[] = [Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day];
const registry = new Map<string, PathParser<unknown>>(builtIns.map((p) => [p.name, p]));

/** A type name usable in patterns: letters, digits and `_`, starting with a letter or `_`. */
const TYPE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Makes `parser` usable in patterns as `label:name` (the parser's own name by default).
 * Registering the same parser twice is harmless; a different parser under a taken name is an error.
 */
export function registerPathType<T>(parser: PathParser<T>, name: string = parser.name): void {
  if (!TYPE_NAME.test(name)) {
    throw new TypeError(`registerPathType: ${JSON.stringify(name)} is not a type name (letters, digits, _)`);
  }
  const existing = registry.get(name);
  if (existing !== undefined && existing !== parser) {
    throw new TypeError(`registerPathType: the type name "${name}" is already registered to another parser`);
  }
  registry.set(name, parser as PathParser<unknown>);
}

/** The parser registered under `name`, if any. */
export function lookupPathType(name: string): PathParser<unknown> | undefined {
  return registry.get(name);
}

/** Every registered type name, built-ins first. */
export function registeredPathTypeNames(): string[] {
  return [...registry.keys()];
}
