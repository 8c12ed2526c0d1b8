import { NoParse, parseSegment, type ParserSchema, type PathParser } from "../src/parsers/parser.js";
import { registerPathType } from "../src/parsers/registry.js";
import { newtypeSchema } from "./openapi.js";
import { isValid } from "./validation.js";

/*
 * Parser classes for user types (http-api-data's FromHttpApiData/ToHttpApiData). Any class with static
 * `parseUrlPiece` and `toUrlPiece` is a parser; `Newtype(Int)` derives both from a wrapped type (like
 * Haskell's `deriving newtype`), and `@PathType()` names the class for patterns.
 */

/** A value of a newtype: one wrapped value of the underlying type. */
export interface NewtypeValue<T> {
  /** The wrapped value, as the underlying parser produced it. */
  readonly value: T;
}

/** An instance of a `Newtype(…)` class: the wrapped value, printing and serializing as it. */
export interface NewtypeInstance<T> extends NewtypeValue<T> {
  /** The wrapped value as a URL piece (the base parser's `toUrlPiece`). */
  toString(): string;
  /** The wrapped value, so `JSON.stringify` writes what the newtype wraps. */
  toJSON(): T;
  /** The wrapped value, so `<`, `>` and `+id` work as on it. */
  valueOf(): T;
}

/** The base class `Newtype(base)` returns: extend it to declare a newtype. */
export interface NewtypeClass<T> {
  /** Wraps `value` without checking it; see {@link NewtypeClass.of} when the subclass redeclares `value`. */
  new (value: T): NewtypeInstance<T>;
  /** The parser of the wrapped type. */
  readonly base: PathParser<T>;
  /** The class itself: parsed values are instances of it (used to cross-check `@PathVar` parameter types). */
  readonly valueType: Function;
  /**
   * Parses with the base parser, wraps the value in this class and checks it against the class's
   * class-validator constraints: a value that fails them is `NoParse`, so routing tries the next route.
   */
  parseUrlPiece(piece: string): NewtypeInstance<T> | NoParse;
  /** The base parser's `toUrlPiece` of the wrapped value. */
  toUrlPiece(value: NewtypeValue<T>): string;
  /**
   * An instance of this class wrapping `value` (not validated). Unlike `new`, it is right even when the
   * subclass redeclares `value` as a plain field (`value!: number`), which a class field would reset.
   */
  of<C extends abstract new (value: T) => NewtypeValue<T>>(this: C, value: T): InstanceType<C>;
  /** Whether `value` meets this class's class-validator constraints. */
  isValid(value: NewtypeValue<T>): boolean;
}

type NewtypeConstructor = new (value: unknown) => { value: unknown };

const newtypeBases = new WeakSet<object>();

/**
 * The base class of a newtype over `base` (a built-in such as `Int`, `Text`, `UUID`, or any parser):
 * it wraps one value, parses and prints like `base`, and refuses values that fail the class-validator
 * decorators on the subclass. Redeclare `value` with `declare` to decorate it, so that no class field
 * resets it:
 * ```ts
 * @PathType()
 * class UserId extends Newtype(Int) {
 *   @Min(1) declare readonly value: number;
 * }
 * // "GET /users/id:UserId": /users/7 gives new UserId(7); /users/0 and /users/x are mismatches
 * ```
 * Instances print as the wrapped value (`String(id)`, `JSON.stringify(id)`).
 */
export function Newtype<T>(base: PathParser<T>): NewtypeClass<T> {
  if (!isParser(base)) {
    throw new TypeError(
      `Newtype: expected a parser (a class or object with parseUrlPiece and toUrlPiece), got ${describe(base)}`,
    );
  }
  const Base = class {
    readonly value: T;

    constructor(value: T) {
      this.value = value;
    }

    static readonly base: PathParser<T> = base;

    /** Every segment a newtype accepts, its base accepts (the shadow report's inclusion fact). */
    static readonly includedIn: readonly PathParser<unknown>[] = [base as PathParser<unknown>];

    /** The base type's schema, narrowed by this class's class-validator constraints. */
    static get openApiSchema(): ParserSchema {
      return newtypeSchema(this, base as PathParser<unknown>);
    }

    static get valueType(): typeof Base {
      return this;
    }

    static of(this: NewtypeConstructor, value: T): NewtypeValue<T> {
      const instance = new this(value);
      // a subclass field `value!: T` (no `declare`) has reset what the constructor stored
      if (instance.value !== value) instance.value = value;
      return instance as NewtypeValue<T>;
    }

    static parseUrlPiece(
      this: NewtypeConstructor & { of(value: T): NewtypeValue<T> },
      piece: string,
    ): NewtypeValue<T> | NoParse {
      const parsed = parseSegment(base, piece);
      if (parsed === NoParse) return NoParse;
      const instance = this.of(parsed);
      return isValid(instance) ? instance : NoParse;
    }

    static toUrlPiece(value: NewtypeValue<T>): string {
      return base.toUrlPiece(value.value);
    }

    static isValid(value: NewtypeValue<T>): boolean {
      return isValid(value);
    }

    toString(): string {
      return base.toUrlPiece(this.value);
    }

    toJSON(): T {
      return this.value;
    }

    valueOf(): T {
      return this.value;
    }
  };
  Object.defineProperty(Base, "name", { value: `Newtype(${base.name})` });
  newtypeBases.add(Base);
  return Base as unknown as NewtypeClass<T>;
}

/** True for a class that extends `Newtype(…)`. */
export function isNewtype(value: unknown): boolean {
  for (let p: unknown = value; typeof p === "function"; p = Object.getPrototypeOf(p)) {
    if (newtypeBases.has(p)) return true;
  }
  return false;
}

/** A class (or object) that parses and prints path pieces: what `@PathType` registers. */
export type ParserClass = PathParser<unknown>;

/**
 * Class decorator: registers a parser class so patterns can name it — under the class's own name
 * (`"GET /users/id:UserId"`), or under `name`. The class needs static `parseUrlPiece(piece)` (a value,
 * or `NoParse`) and `toUrlPiece(value)`: a `Newtype(…)` subclass has both.
 *
 * For typed `vars` in the functional form, also map the name to the type:
 * `declare module "switchyard-router" { interface PathTypes { UserId: UserId } }`.
 */
export function PathType(name?: string): <C extends ParserClass>(target: C) => void {
  if (name !== undefined && typeof name !== "string")
    throw new TypeError(`@PathType: the name must be a string, got ${typeof name}`);
  return (target) => {
    if (!isParser(target)) {
      throw new TypeError(
        `@PathType on ${describe(target)}: a parser class needs static parseUrlPiece(piece) and toUrlPiece(value)`,
      );
    }
    registerPathType(target, name ?? target.name);
  };
}

function isParser(value: unknown): value is PathParser<unknown> {
  return (
    (typeof value === "function" || (typeof value === "object" && value !== null)) &&
    typeof (value as Partial<PathParser<unknown>>).parseUrlPiece === "function" &&
    typeof (value as Partial<PathParser<unknown>>).toUrlPiece === "function"
  );
}

function describe(value: unknown): string {
  if (typeof value === "function") return value.name === "" ? "an anonymous class" : value.name;
  return value === null ? "null" : typeof value;
}
