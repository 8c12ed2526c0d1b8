import type { JsonSchemaSource, ResponseInfo } from "../src/tree.js";
import type { ClassLike } from "./metadata.js";

/*
 * `@Returns(status, schemaOrDto, description?)`: a controller method's reply for one status, recorded
 * on its class (as `@Describe` records its docs) and put in the handler leaf's `info.responses` by
 * `handlerInfoOf` (decorators/openapi.ts), where OpenAPI documents it and the pipeline's response
 * contracts (`contracts: "check" | "strip"`) enforce it. The functional counterpart is
 * `described(handler, { responses: { [status]: { schema, description } } })`.
 */

const RETURNS = "switchyard:returns";

/** Method decorator: the route replies `status` with a body of `schema` (a DTO class, `[Dto]`, a Standard Schema or a JSON Schema). */
export function Returns(
  status: number | `${1 | 2 | 3 | 4 | 5}XX` | "default",
  schema: JsonSchemaSource,
  description?: string,
): (target: object, method: string | symbol, descriptor?: PropertyDescriptor) => void {
  const key = String(status);
  if (!/^(?:[1-5]\d\d|[1-5]XX|default)$/.test(key))
    throw new TypeError(`@Returns: ${JSON.stringify(status)} is not a status (100 … 599, "2XX", "default")`);
  if (schema === undefined || schema === null || (typeof schema !== "object" && typeof schema !== "function"))
    throw new TypeError(
      `@Returns(${key}): expected a schema, a DTO class or [Dto], got ${schema === null ? "null" : typeof schema}`,
    );
  if (description !== undefined && typeof description !== "string")
    throw new TypeError(`@Returns(${key}): the description must be a string`);
  return (target, method) => {
    const cls = target.constructor as ClassLike;
    const own = (Reflect.getOwnMetadata(RETURNS, cls, method) as Record<string, ResponseInfo> | undefined) ?? {};
    if (key in own) throw new TypeError(`@Returns(${key}) is written twice on ${cls.name}.${String(method)}`);
    const entry: ResponseInfo = description === undefined ? { schema } : { description, schema };
    Reflect.defineMetadata(RETURNS, { [key]: entry, ...own }, cls, method);
  };
}

/** The `@Returns` of a method by status (a base class's method's when the subclass does not override it); `undefined` when none. */
export function returnsOf(cls: ClassLike, method: string | symbol): Readonly<Record<string, ResponseInfo>> | undefined {
  return Reflect.getMetadata(RETURNS, cls, method) as Record<string, ResponseInfo> | undefined;
}
