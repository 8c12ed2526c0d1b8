import { registerInstanceToPlain } from "../src/json.js";
import { type DtoOptions, registerDtoValidator } from "../src/validate/dto.js";
import { badRequest, type FieldError } from "../src/validate/field-errors.js";
import { loadClassTransformer, loadClassValidator, loadTransformerStorage } from "./class-validator.cjs";
import { compiledStatus, FALLBACK, validateCompiled } from "./compiled-dto/index.js";
import type { RunOptions } from "./compiled-dto/run.js";
import { hasConstraints } from "./validation.js";

/*
 * class-validator DTOs for the core's `body()` and `queryObject()`: class-transformer turns the plain
 * JSON (or query record) into an instance of the class (nested classes through its `@Type`),
 * class-validator checks it. Both are optional peer dependencies, loaded on first use; this module
 * registers the validator with the core when it is loaded (`switchyard-router/decorators` loads it).
 */

interface ValidationFailure {
  readonly property: string | undefined;
  readonly constraints?: Readonly<Record<string, string>>;
  readonly children?: readonly ValidationFailure[];
}

interface Libraries {
  plainToInstance(type: Function, plain: object): object;
  validate(value: object, options: object): Promise<readonly ValidationFailure[]>;
}

let libraries: Libraries | undefined;

/**
 * Throws a clear error naming the missing one unless class-transformer and class-validator are
 * installed; `controllers()` calls it for every DTO parameter, so a missing package fails at startup,
 * not on the first request. It loads class-transformer's storage module (which the compiled validator
 * reads anyway), not its index: a DTO the compiled validator covers never needs the index, which cost
 * the benchmark's decorated app ~10 ms of its start on Node and ~5 ms on Bun.
 */
export function checkBodyLibraries(): void {
  // a layout without that module (another version), or a bundle: whether the index loads decides
  if (loadTransformerStorage() === null && loadClassTransformer() === null) throw missingLibrary("class-transformer");
  if (loadClassValidator() === null) throw missingLibrary("class-validator");
}

/** class-transformer's `plainToInstance` and class-validator's `validate`, loaded on first use (see {@link checkBodyLibraries}). */
function bodyLibraries(): Libraries {
  if (libraries === undefined) {
    const transformer = loadClassTransformer() as Pick<Libraries, "plainToInstance"> | null;
    const validator = loadClassValidator() as Pick<Libraries, "validate"> | null;
    if (transformer === null || validator === null)
      throw missingLibrary(transformer === null ? "class-transformer" : "class-validator");
    libraries = { plainToInstance: transformer.plainToInstance, validate: validator.validate };
  }
  return libraries;
}

function missingLibrary(name: string): Error {
  return new Error(
    `a class-validator DTO (@Body(), @Query(), body(), queryObject()) needs the optional peer dependency ${name}: ` +
      "npm install class-transformer class-validator",
  );
}

// the compiled validator's three option sets, made once (not an object per request)
const PLAIN: RunOptions = { whitelist: false, forbidNonWhitelisted: false };
const WHITELIST: RunOptions = { whitelist: true, forbidNonWhitelisted: false };
const FORBID: RunOptions = { whitelist: true, forbidNonWhitelisted: true };

/**
 * `plain` as a validated instance of `type`. `forbidUnknownValues` is on: a nested object that is not an
 * instance of a class with constraints (a `@ValidateNested()` property without class-transformer's
 * `@Type(() => C)`, so left a plain object) is a 400, not an object validated against nothing.
 * The class's compiled validator answers when it has one (compiled-dto/: the same instance, decisions
 * and messages); class-transformer and class-validator themselves otherwise, or when `compiled: false`.
 */
function validateInstance(
  type: Function,
  plain: object,
  where: "body" | "query",
  options: DtoOptions,
): object | Promise<object> {
  const whitelist = options.whitelist === true || options.forbidNonWhitelisted === true;
  const forbidNonWhitelisted = options.forbidNonWhitelisted === true;
  if (options.compiled !== false && compiledStatus(type).compiled) {
    const outcome = validateCompiled(type, plain, forbidNonWhitelisted ? FORBID : whitelist ? WHITELIST : PLAIN);
    if (outcome !== FALLBACK) {
      if (outcome.failures.length > 0) return rejected(invalid(outcome.failures, where));
      return outcome.instance;
    }
  }
  const { plainToInstance, validate } = bodyLibraries();
  const instance = plainToInstance(type, plain);
  const checks = {
    whitelist,
    forbidNonWhitelisted,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
  };
  return validate(instance, checks).then((failures) => {
    if (failures.length > 0) throw invalid(failures, where);
    return instance;
  });
}

/**
 * A promise rejected with `error`, made without a `throw` (V8 spends a third of a 400 in process on
 * locating a throw for its message) and handled from the start, so that Node's unhandled-rejection
 * bookkeeping (a plain `Promise.reject` costs more than the throw) has nothing to do; whoever awaits it
 * still gets the rejection.
 */
function rejected(error: Error): Promise<never> {
  let reject!: (reason: unknown) => void;
  const promise = new Promise<never>((_resolve, rejectWith) => {
    reject = rejectWith;
  });
  promise.catch(ignore);
  reject(error);
  return promise;
}

function ignore(): void {}

function invalid(failures: readonly ValidationFailure[], where: "body" | "query"): Error {
  return badRequest(`the ${where} is invalid`, fieldErrors(failures, "", where));
}

registerDtoValidator({ hasConstraints, validate: validateInstance });

// returned class instances are written through class-transformer's instanceToPlain (@Exclude, @Expose)
// when class-transformer is installed; it is loaded on the first instance written, not here
let instanceToPlain: ((value: object) => unknown) | null | undefined;
registerInstanceToPlain((value) => {
  if (instanceToPlain === undefined) {
    const transformer = loadClassTransformer() as { instanceToPlain?: (value: object) => unknown } | null;
    instanceToPlain = typeof transformer?.instanceToPlain === "function" ? transformer.instanceToPlain : null;
  }
  return instanceToPlain === null ? value : instanceToPlain(value);
});

/**
 * `body()` of `switchyard-router` (a Standard Schema or a class-validator DTO class), exported here
 * too, where DTO classes are always understood. The functional form of `@Body()`:
 * ```ts
 * route("POST /users", async (req) => store.add(await body(req, CreateUser, { whitelist: true })))
 * ```
 */
export { body, type BodyOptions } from "../src/validate/body.js";

/** class-validator's tree of failures as one flat list, one entry per field and constraint (depth first). */
function fieldErrors(
  failures: readonly ValidationFailure[],
  parent: string,
  where: "body" | "query",
  into: FieldError[] = [],
): FieldError[] {
  for (const failure of failures) {
    // the failure of a nested value that is no instance of a checked class (unknownValue) names no property
    const property = typeof failure.property === "string" ? failure.property : "";
    const field = parent === "" ? property : property === "" ? parent : `${parent}.${property}`;
    const constraints = failure.constraints ?? {};
    for (const constraint of Object.keys(constraints))
      into.push({ in: where, field, constraint, message: constraints[constraint]! });
    if (failure.children !== undefined) fieldErrors(failure.children, field, where, into);
  }
  return into;
}
