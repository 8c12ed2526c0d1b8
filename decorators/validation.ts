import { NoParse } from "../src/parsers/parser.js";
import { loadClassValidator } from "./class-validator.cjs";

/*
 * class-validator is optional: it is loaded on first use, and when it is not installed nothing can
 * carry its decorators, so every value is valid. A class's constraints are looked up once.
 */

interface ClassValidator {
  validateSync(value: object, options: { forbidUnknownValues: boolean }): readonly unknown[];
  getMetadataStorage(): {
    getTargetValidationMetadatas(
      target: Function,
      schema: string,
      always: boolean,
      strictGroups: boolean,
    ): readonly unknown[];
  };
}

let library: ClassValidator | null | undefined;

/** class-validator, or `null` when it is not installed. */
export function classValidator(): ClassValidator | null {
  if (library === undefined) library = loadClassValidator() as ClassValidator | null;
  return library;
}

const constrained = new WeakMap<Function, boolean>();

/**
 * True when class-validator decorators are declared on `cls` or a base class (any of them, `@Allow()`
 * included); false when none are, or class-validator is not installed.
 */
export function hasConstraints(cls: Function): boolean {
  const validator = classValidator();
  if (validator === null) return false;
  let found = constrained.get(cls);
  if (found === undefined) {
    found = validator.getMetadataStorage().getTargetValidationMetadatas(cls, "", true, false).length > 0;
    constrained.set(cls, found);
  }
  return found;
}

/**
 * True when `value` meets the class-validator constraints declared on its class (`@Min(1)`,
 * `@Length(3, 20)`, …); true as well when its class declares none or class-validator is not installed.
 */
export function isValid(value: object): boolean {
  const validator = classValidator();
  if (validator === null) return true;
  const cls = value.constructor;
  if (typeof cls !== "function") return true;
  return !hasConstraints(cls) || validator.validateSync(value, { forbidUnknownValues: false }).length === 0;
}

/**
 * `value` when it meets its class's class-validator constraints, else `NoParse` — for a hand-written
 * parser class that wants the refinement a `Newtype` gets by itself:
 * ```ts
 * static parseUrlPiece(piece: string) { return validated(new Slug(piece)); }
 * ```
 * Values that are not objects pass through unchanged.
 */
export function validated<T>(value: T): T | NoParse {
  return typeof value === "object" && value !== null && !isValid(value) ? NoParse : value;
}
