import { plainOf } from "../json.js";
import { processGlobal } from "../process-global.js";
import { badRequest } from "./field-errors.js";

/*
 * class-validator DTO classes. The core reads a JSON body or a query with a Standard Schema on its own;
 * a DTO class needs class-transformer and class-validator, which the core never loads (it stays free of
 * them, and of Node's `require`): `switchyard-router/decorators` registers the validator that does, when
 * it is loaded. One registration per process, seen by both builds of the package.
 */

/** How a DTO is checked: `body()`'s and `queryObject()`'s class-validator options. */
export interface DtoOptions {
  /** Properties without class-validator decorators are removed from the DTO. */
  readonly whitelist?: boolean;
  /** Properties without class-validator decorators are a 400 (implies `whitelist`). */
  readonly forbidNonWhitelisted?: boolean;
  /**
   * `false` runs class-transformer and class-validator on every request, instead of the validator
   * compiled once from the class's metadata (the default; it gives the same instance, the same 400s, and
   * falls back to them by itself for what it does not cover).
   */
  readonly compiled?: boolean;
}

/** A DTO class: instances made with `new`, whose properties carry class-validator decorators. */
export type DtoClass<T extends object = object> = new () => T;

/** What `switchyard-router/decorators` registers: class-transformer and class-validator at work. */
export interface DtoValidator {
  /** Whether instances of `type` are checked by anything: class-validator metadata on it or a base class. */
  hasConstraints(type: Function): boolean;
  /**
   * `plain` (a JSON object) as a validated instance of `type`; a 400 listing every failing property
   * (`in`: `where`) otherwise — thrown, or the promise's rejection. Synchronous when it can be (a compiled
   * validator), so a request pays no promise for it.
   */
  validate(type: Function, plain: object, where: "body" | "query", options: DtoOptions): object | Promise<object>;
}

const registered = processGlobal("dtoValidator", () => ({ validator: undefined as DtoValidator | undefined }));

/** Makes `validator` the one that checks DTO classes (called by `switchyard-router/decorators`). */
export function registerDtoValidator(validator: DtoValidator): void {
  registered.validator = validator;
}

/**
 * `plain` as a validated instance of the DTO class `type`, or a 400 (thrown, or the promise's rejection).
 * A class nothing checks — no class-validator decorator on it or a base class — is refused with a
 * `TypeError` (a 500: the app's mistake), since every value would pass it; so is a class when no DTO
 * validator is registered. `reader` names the caller in messages (`body()`). Synchronous when the
 * validator is (await it all the same).
 */
export function validateDto<T extends object>(
  reader: string,
  type: DtoClass<T>,
  plain: unknown,
  where: "body" | "query",
  options: DtoOptions,
): T | Promise<T> {
  return validateDtoWith(dtoValidatorFor(reader, type), type, plain, where, options);
}

/** {@link validateDto} by a validator already found for `type` (`body()` finds it before reading the body). */
export function validateDtoWith<T extends object>(
  validator: DtoValidator,
  type: DtoClass<T>,
  plain: unknown,
  where: "body" | "query",
  options: DtoOptions,
): T | Promise<T> {
  if (typeof plain !== "object" || plain === null || Array.isArray(plain)) {
    const got = plain === null ? "null" : Array.isArray(plain) ? "an array" : typeof plain;
    throw badRequest(`the ${where} must be a JSON object`, [
      { in: where, field: "", constraint: "isObject", message: `expected a JSON object, got ${got}` },
    ]);
  }
  return validator.validate(type, plain, where, options) as T | Promise<T>;
}

/** The registered validator for a response contract's DTO class `type` (see `dtoValidatorFor`). */
export function registeredDtoValidator(type: Function): DtoValidator {
  return dtoValidatorFor("a response contract", type);
}

/** A validated DTO instance as the plain object JSON sends (class-transformer's `instanceToPlain`). */
export function dtoToPlain(instance: object): unknown {
  return plainOf(instance);
}

/** The registered validator, when it checks `type`; else the `TypeError` saying why not. */
export function dtoValidatorFor(reader: string, type: Function): DtoValidator {
  const validator = registered.validator;
  if (validator?.hasConstraints(type)) return validator;
  // reading a class's name is slow: only for the error
  const name = type.name === "" ? "(anonymous class)" : type.name;
  if (validator === undefined) {
    throw new TypeError(
      `${reader}: ${name} is a class, read as a class-validator DTO by switchyard-router/decorators, which is not loaded: ` +
        'import { body } from "switchyard-router/decorators" (or import "switchyard-router/decorators" once), or give a Standard Schema (zod, valibot, arktype)',
    );
  }
  throw new TypeError(
    `${reader}: ${name} has no class-validator decorators (nor does a base class), so every value would pass it: ` +
      "decorate its properties (@IsString(), @IsInt(), @Allow() for one taken as it is, …), or give a Standard Schema",
  );
}
