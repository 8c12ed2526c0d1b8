import { isHttpError } from "../src/errors.js";
import { badRequest, type FieldError } from "../src/params.js";
import type { RoutedRequest } from "../src/request.js";
import { loadClassTransformer, loadClassValidator } from "./class-validator.cjs";

/*
 * `body(req, Dto)`: the JSON body as a validated DTO instance, the functional counterpart of `@Body()`.
 * class-transformer turns the plain JSON into an instance of the class (nested classes through its
 * `@Type`), class-validator checks it; both are optional peer dependencies, loaded on first use.
 */

/** Options of {@link body}. */
export interface BodyOptions {
  /** Properties without class-validator decorators are removed from the DTO. */
  readonly whitelist?: boolean;
  /** Properties without class-validator decorators are a 400 (implies `whitelist`). */
  readonly forbidNonWhitelisted?: boolean;
  /** How deep objects and arrays may nest (the body itself is level 1); deeper is a 400. Default 64. */
  readonly maxDepth?: number;
}

const DEFAULT_MAX_DEPTH = 64;

interface ValidationFailure {
  readonly property: string;
  readonly constraints?: Readonly<Record<string, string>>;
  readonly children?: readonly ValidationFailure[];
}

interface Libraries {
  plainToInstance(type: new () => object, plain: object): object;
  validate(value: object, options: object): Promise<readonly ValidationFailure[]>;
}

let libraries: Libraries | undefined;

/**
 * class-transformer and class-validator, or a clear error naming the missing one; `controllers()` calls
 * it for every `@Body` route, so a missing package fails at startup, not on the first request.
 */
export function bodyLibraries(): Libraries {
  if (libraries === undefined) {
    const transformer = loadClassTransformer() as Pick<Libraries, "plainToInstance"> | null;
    const validator = loadClassValidator() as Pick<Libraries, "validate"> | null;
    if (transformer === null || validator === null) {
      throw new Error(
        `@Body()/body() needs the optional peer dependency ${transformer === null ? "class-transformer" : "class-validator"}: ` +
          "npm install class-transformer class-validator",
      );
    }
    libraries = { plainToInstance: transformer.plainToInstance, validate: validator.validate };
  }
  return libraries;
}

/**
 * The request's JSON body (read within the body limit: over it, a 413) as an instance of `type`,
 * validated with the class's class-validator decorators. Throws a 400 `HttpError` when the body is not
 * JSON, not a JSON object, or fails a constraint, listing every failing field (`address.city`, `items.0.qty`) and constraint:
 * ```ts
 * route("POST /users", async (req) => store.add(await body(req, CreateUser, { whitelist: true })))
 * ```
 */
export async function body<T extends object>(
  request: RoutedRequest<object>,
  type: new () => T,
  options: BodyOptions = {},
): Promise<T> {
  const { plainToInstance, validate } = bodyLibraries();
  const plain = await json(request);
  if (typeof plain !== "object" || plain === null || Array.isArray(plain)) {
    const got = plain === null ? "null" : Array.isArray(plain) ? "an array" : typeof plain;
    throw badRequest("the body must be a JSON object", [
      { in: "body", field: "", constraint: "isObject", message: `expected a JSON object, got ${got}` },
    ]);
  }
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (deeperThan(plain, maxDepth)) {
    throw badRequest(`the body is nested deeper than ${maxDepth} levels`, [
      { in: "body", field: "", constraint: "maxDepth", message: `objects and arrays nest at most ${maxDepth} deep` },
    ]);
  }
  const instance = plainToInstance(type, plain) as T;
  const failures = await validate(instance, {
    whitelist: options.whitelist === true || options.forbidNonWhitelisted === true,
    forbidNonWhitelisted: options.forbidNonWhitelisted === true,
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  if (failures.length > 0) throw badRequest("the body is invalid", fieldErrors(failures, ""));
  return instance;
}

/** The body parsed as JSON; malformed or empty JSON is the core's 400, in the shape of the other fields' 400s. */
async function json(request: RoutedRequest<object>): Promise<unknown> {
  try {
    return await request.json();
  } catch (error) {
    if (!isHttpError(error) || error.status !== 400) throw error;
    throw badRequest(error.message, [{ in: "body", field: "", constraint: "isJson", message: error.message }]);
  }
}

/**
 * Whether JSON `value` nests objects or arrays more than `limit` deep. Walked without recursion:
 * class-transformer and class-validator recurse, and a body of nested brackets within the size limit
 * would otherwise exhaust the stack (a 500 instead of the client's 400).
 */
function deeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(item))
      if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
  }
  return false;
}

/** class-validator's tree of failures as one flat list, one entry per field and constraint. */
function fieldErrors(failures: readonly ValidationFailure[], parent: string): FieldError[] {
  return failures.flatMap((failure) => {
    const field = parent === "" ? failure.property : `${parent}.${failure.property}`;
    const own = Object.entries(failure.constraints ?? {}).map(([constraint, message]) => ({
      in: "body" as const,
      field,
      constraint,
      message,
    }));
    return [...own, ...fieldErrors(failure.children ?? [], field)];
  });
}
