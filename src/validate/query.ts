import type { RoutedRequest } from "../request.js";
import { isStandardSchema, type SchemaOutput, type StandardSchema } from "../schema/standard.js";
import { validate } from "../schema/validate.js";
import { type DtoClass, type DtoOptions, validateDto } from "./dto.js";

/** Options of {@link queryObject}. */
export interface QueryObjectOptions extends DtoOptions {
  /** Keys given as an array even when sent once (`?tag=a` → `{ tag: ["a"] }`). */
  readonly arrays?: readonly string[];
}

/**
 * The whole query string as one object, validated: with a Standard Schema, its output; with a
 * class-validator DTO class, an instance of it (needs `switchyard-router/decorators` loaded). A
 * failing value is a 400 listing every failing key (`in: "query"`) with its path and constraint.
 *
 * Values are strings, as sent: convert in the schema (`z.coerce.number()`, valibot's
 * `v.pipe(v.string(), v.toNumber())`, arktype's `"string.integer.parse"`; for a DTO,
 * class-transformer's `@Type(() => Number)`). A key sent once is a string, a repeated key
 * (`?tag=a&tag=b`) an array of its values in order, and a key in `arrays` always an array; a key not
 * sent is absent (a schema's default or optional applies). Keys are taken as they are: `__proto__`
 * is a key like any other, never the object's prototype.
 * ```ts
 * const List = z.object({ page: z.coerce.number().int().min(1).default(1), tag: z.array(z.string()).default([]) });
 * route("GET /items", async (req) => list(await queryObject(req, List, { arrays: ["tag"] })))
 * ```
 */
export function queryObject<S extends StandardSchema>(
  request: RoutedRequest<object>,
  schema: S,
  options?: QueryObjectOptions,
): Promise<SchemaOutput<S>>;
export function queryObject<T extends object>(
  request: RoutedRequest<object>,
  type: DtoClass<T>,
  options?: QueryObjectOptions,
): Promise<T>;
export async function queryObject(
  request: RoutedRequest<object>,
  validator: StandardSchema | DtoClass,
  options: QueryObjectOptions = {},
): Promise<unknown> {
  const plain = queryRecord(request, options.arrays);
  if (isStandardSchema(validator)) return validate(validator, plain, "query", "", "the query is invalid");
  if (typeof validator !== "function") {
    throw new TypeError(
      `queryObject(): expected a Standard Schema (zod, valibot, arktype, …) or a class-validator DTO class, got ${validator === null ? "null" : typeof validator}`,
    );
  }
  return validateDto("queryObject()", validator, plain, "query", options);
}

/**
 * The query as a record: a key sent once → its value, a repeated key → its values in order, a key in
 * `arrays` → always its values. The record has no prototype, so no key can reach one.
 */
export function queryRecord(
  request: RoutedRequest<object>,
  arrays: readonly string[] = [],
): Record<string, string | string[]> {
  return recordOf(request.query, arrays);
}

/**
 * Named values (a query, a form's fields) as a record, as {@link queryRecord} reads a query: a key sent
 * once → its value, a repeated key or one in `arrays` → its values in order; no prototype.
 */
export function recordOf(values: URLSearchParams, arrays: readonly string[] = []): Record<string, string | string[]> {
  const record = Object.create(null) as Record<string, string | string[]>;
  for (const key of new Set(values.keys())) {
    const all = values.getAll(key);
    record[key] = all.length > 1 || arrays.includes(key) ? all : all[0]!;
  }
  return record;
}
