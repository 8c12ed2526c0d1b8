import type { ContractResult, ContractValue } from "../src/contract-types.js";
import type { JsonSchemaSource, ResponseInfo } from "../src/tree.js";
import { methodDecorator } from "./class-or-method.js";
import type { ClassLike } from "./metadata.js";

/*
 * `@Returns(status, schemaOrDto, description?)`: a controller method's reply for one status, recorded
 * on its class (as `@Describe` records its docs) and put in the handler leaf's `info.responses` by
 * `handlerInfoOf` (decorators/openapi.ts), where OpenAPI documents it and the pipeline's response
 * contracts (`contracts: "check" | "strip"`) enforce it. The functional counterpart is
 * `described(handler, { responses: { [status]: { schema, description } } })`.
 */

const RETURNS = "switchyard:returns";

/** A status `@Returns` takes: 100 … 599, a class of them (`"2XX"`), or `"default"`. */
export type ReturnsStatus = number | `${1 | 2 | 3 | 4 | 5}XX` | "default";

/**
 * The decorator `@Returns` gives, under legacy (`experimentalDecorators`) and TC39 standard decorators
 * alike. For a status whose schema types what the method returns (200, `"2XX"`), the method's plain
 * result must be a `T` (a reply, text, bytes, a stream, nothing or `routeMismatch()` pass as they are):
 * TypeScript reports a method that cannot satisfy the contract at the decorator.
 */
export interface ReturnsDecorator<T = unknown> {
  /** TC39 standard decorators: the method itself. */
  <M extends (...args: never[]) => ContractResult<T>>(method: M, context: ClassMethodDecoratorContext): void;
  /** Legacy decorators: the method's type comes in through its descriptor (last: tsc explains the last overload's error). */
  <M extends (...args: never[]) => ContractResult<T>>(
    target: object,
    method: string | symbol,
    descriptor: TypedPropertyDescriptor<M>,
  ): void;
}

/**
 * Method decorator: the route replies `status` with a body of `schema` (a DTO class, `[Dto]`, a
 * Standard Schema or a JSON Schema). With 200 (or `"2XX"`) and a schema that checks (not a JSON Schema
 * object), a method whose plain result the schema cannot accept is a type error (see
 * `ContractResult`); other statuses are sent as replies (`json(v, { status: 404 })`), whose bodies the
 * types cannot see: the run-time contract checks those.
 */
export function Returns<const S extends JsonSchemaSource>(
  status: 200 | "2XX",
  schema: S,
  description?: string,
): ReturnsDecorator<ContractValue<S>>;
export function Returns(status: ReturnsStatus, schema: JsonSchemaSource, description?: string): ReturnsDecorator;
export function Returns(
  status: ReturnsStatus,
  schema: JsonSchemaSource,
  description?: string,
): (target: unknown, method: unknown, descriptor?: PropertyDescriptor) => void {
  const key = String(status);
  if (!/^(?:[1-5]\d\d|[1-5]XX|default)$/.test(key))
    throw new TypeError(`@Returns: ${JSON.stringify(status)} is not a status (100 … 599, "2XX", "default")`);
  if (schema === undefined || schema === null || (typeof schema !== "object" && typeof schema !== "function"))
    throw new TypeError(
      `@Returns(${key}): expected a schema, a DTO class or [Dto], got ${schema === null ? "null" : typeof schema}`,
    );
  if (description !== undefined && typeof description !== "string")
    throw new TypeError(`@Returns(${key}): the description must be a string`);
  const entry: ResponseInfo = description === undefined ? { schema } : { description, schema };
  return methodDecorator("@Returns", (cls, method) => {
    const own = (Reflect.getOwnMetadata(RETURNS, cls, method) as Record<string, ResponseInfo> | undefined) ?? {};
    if (key in own) throw new TypeError(`@Returns(${key}) is written twice on ${cls.name}.${String(method)}`);
    Reflect.defineMetadata(RETURNS, { [key]: entry, ...own }, cls, method);
  });
}

/** The `@Returns` of a method by status (a base class's method's when the subclass does not override it); `undefined` when none. */
export function returnsOf(cls: ClassLike, method: string | symbol): Readonly<Record<string, ResponseInfo>> | undefined {
  return Reflect.getMetadata(RETURNS, cls, method) as Record<string, ResponseInfo> | undefined;
}
