import { NoParse, parseSegment, type PathParser } from "./parsers/parser.js";
import { Text } from "./parsers/text.js";
import type { RoutedRequest } from "./request.js";
import { isStandardSchema, type SchemaOutput, type StandardSchema } from "./schema/standard.js";
import { validateValue } from "./schema/validate.js";
import { isThenable } from "./thenable.js";
import { badRequest, combinedErrors, type ValueSource } from "./validate/field-errors.js";
import { type NamedSource, sourceIn, sourceNamed } from "./value-names.js";

export { badRequest, type FieldError, type ValueSource } from "./validate/field-errors.js";

/*
 * Query parameters, headers and cookies, read with the path parsers (WebGear reads them with the same
 * FromHttpApiData as path variables) or with a Standard Schema. Unlike a path segment, which decides
 * which route answers and so is a mismatch, a missing or malformed query parameter, header or cookie
 * is the client's mistake about a route that did answer: a 400 naming it. The `@Query`/`@Header`/
 * `@Cookie` decorators are built on these.
 */

/** Options of {@link queryParam}, {@link headerParam} and {@link cookieParam}. */
export interface ParamOptions {
  /** A missing value is `undefined` instead of a 400. */
  readonly optional?: boolean;
}

type AnyRequest = RoutedRequest<object>;

/**
 * Reads one named value of a request (a query parameter, a header or a cookie), parsed with `parser` (`Text`
 * unless given). Missing (unless `optional`) or unparsable: throws a 400 `HttpError` naming the
 * value and the type.
 *
 * With a Standard Schema (zod, valibot, arktype, …) instead of a parser, the value is validated by the
 * schema and the reader gives a **promise** of its output (a schema may validate asynchronously; read
 * several with `readParamsAsync` to get every failing field in one 400). The value is the string as
 * sent, so a schema converts it (`z.coerce.number()`). A value not sent is `undefined` when `optional`;
 * otherwise the schema is given `undefined`, so its default or optional applies, and a schema that
 * refuses it is the 400 saying the value is `required`. A value it refuses is the 400 listing its
 * issues (constraint: the library's code, `too_small`).
 */
export interface NamedValueReader {
  (request: AnyRequest, name: string): string;
  <S extends StandardSchema>(
    request: AnyRequest,
    name: string,
    schema: S,
    options: ParamOptions & { readonly optional: true },
  ): Promise<SchemaOutput<S> | undefined>;
  <S extends StandardSchema>(
    request: AnyRequest,
    name: string,
    schema: S,
    options?: ParamOptions,
  ): Promise<SchemaOutput<S>>;
  (
    request: AnyRequest,
    name: string,
    parser: undefined,
    options: ParamOptions & { readonly optional: true },
  ): string | undefined;
  <T>(request: AnyRequest, name: string, parser: PathParser<T>): T;
  <T>(
    request: AnyRequest,
    name: string,
    parser: PathParser<T>,
    options: ParamOptions & { readonly optional: true },
  ): T | undefined;
  <T>(request: AnyRequest, name: string, parser?: PathParser<T>, options?: ParamOptions): T | undefined;
}

/** A reader of one named value, from where it is and how to get it. */
function namedValue(where: ValueSource, get: (request: AnyRequest, name: string) => string | null): NamedValueReader {
  return ((
    request: AnyRequest,
    name: string,
    type: PathParser<unknown> | StandardSchema = Text,
    options: ParamOptions = {},
  ) => {
    const value = get(request, name);
    if (isStandardSchema(type)) return validateValue(where, name, type, value ?? undefined, options.optional === true);
    return value === null ? absentValue(where, name, type, options) : parsedValue(where, name, type, value);
  }) as NamedValueReader;
}

/**
 * The query parameter `name` (its first value), e.g. `queryParam(req, "page", Int)`; see
 * {@link NamedValueReader}. An empty value (`?page=`) is present.
 */
export const queryParam: NamedValueReader = namedValue("query", (request, name) => request.query.get(name));

/** The request header `name` (any case), e.g. `headerParam(req, "x-api-key")`; see {@link NamedValueReader}. */
export const headerParam: NamedValueReader = namedValue("header", (request, name) => request.headers.get(name));

/**
 * The request cookie `name` (case-sensitive; the first of duplicates), e.g. `cookieParam(req, "page", Int)`;
 * see {@link NamedValueReader}. The value is read as sent, not percent-decoded (see `req.cookies`); a
 * missing (unless `optional`) or unparsable cookie is the same 400 as a query parameter's, with
 * `"in": "cookie"`. For a signed cookie, see `signedCookieParam`.
 */
export const cookieParam: NamedValueReader = namedValue("cookie", (request, name) => request.cookies.get(name) ?? null);

/**
 * Every value of the repeated query key `name` (`?tag=a&tag=b`), each parsed with `parser`; `[]` when
 * there is none. One unparsable value throws a 400 naming the parameter.
 *
 * With a Standard Schema, the schema gets the array of the values as sent (`[]` when none), so it can
 * bound their count as well as check each (`z.array(z.coerce.number().int()).max(10)`); a promise of its
 * output, or a 400 whose fields name the failing value (`tag.1`).
 */
export function queryParams(request: AnyRequest, name: string): string[];
export function queryParams<S extends StandardSchema>(
  request: AnyRequest,
  name: string,
  schema: S,
): Promise<SchemaOutput<S>>;
export function queryParams<T>(request: AnyRequest, name: string, parser: PathParser<T>): T[];
export function queryParams(
  request: AnyRequest,
  name: string,
  type: PathParser<unknown> | StandardSchema = Text,
): unknown[] | Promise<unknown> {
  return allValues("query", name, type, request.query.getAll(name));
}

/**
 * Every value of a repeated name (query key, form field): each read with a parser, or all given to a
 * Standard Schema as one array (a promise of its output).
 */
export function allValues(
  where: NamedSource,
  name: string,
  type: PathParser<unknown> | StandardSchema,
  values: string[],
): unknown[] | Promise<unknown> {
  if (isStandardSchema(type)) return validateValue(where, name, type, values, false);
  return values.map((value) => parsedValue(where, name, type, value));
}

/**
 * A named value (a form's field or file too) that was not sent: `undefined` when `optional`, else the
 * 400 saying it is required, and what it would have been read as (`type`: a parser, or `{ name: "file" }`).
 */
export function absentValue(
  where: NamedSource,
  name: string,
  type: { readonly name: string },
  options: ParamOptions,
): undefined {
  if (options.optional === true) return undefined;
  const message = `${sourceNamed(where, name)} is required`;
  throw badRequest(message, [
    { in: sourceIn(where), field: name, constraint: "required", message: `${message} (${type.name})` },
  ]);
}

/** A named value (a form field too) read with `parser`; one it refuses is the 400 naming the value and the type. */
export function parsedValue<T>(where: NamedSource, name: string, parser: PathParser<T>, value: string): T {
  const result = parseSegment(parser, value);
  if (result !== NoParse) return result;
  const message = `${sourceNamed(where, name)} is not a valid ${parser.name}`;
  throw badRequest(message, [
    {
      in: sourceIn(where),
      field: name,
      constraint: parser.name,
      message: `${JSON.stringify(value)} is not a valid ${parser.name}`,
    },
  ]);
}

/** Reads one value from a request: `(req) => queryParam(req, "page", Int)`. */
export type ParamReader<T = unknown, R extends AnyRequest = AnyRequest> = (request: R) => T;

type ValuesOf<R extends readonly unknown[]> = {
  -readonly [K in keyof R]: R[K] extends ParamReader<infer T, never> ? Awaited<T> : undefined;
};

/**
 * Runs every reader on the request and returns their values in order (a hole for an `undefined`
 * reader). A failing reader does not hide the others: every failing field of every reader is answered
 * in one 400 (an error that is not such a 400 is thrown as it is). The readers must be synchronous: one
 * that gives a promise (a schema, a body, a signed cookie) is a `TypeError` — its value would be a
 * promise, unchecked, and its failure a rejection nobody handles; use {@link readParamsAsync}. The
 * `@Query`/`@Header`/`@Body` decorators fill a method's parameters with these:
 * ```ts
 * const [page, key] = readParams(req, [(r) => queryParam(r, "page", Int), (r) => headerParam(r, "x-api-key")]);
 * ```
 */
export function readParams<const R extends readonly (ParamReader<unknown, never> | undefined)[]>(
  request: AnyRequest,
  readers: R,
): ValuesOf<R> {
  const values = new Array<unknown>(readers.length);
  let failures: unknown[] | undefined;
  for (let i = 0; i < readers.length; i++) {
    const reader = readers[i] as ParamReader | undefined;
    if (reader === undefined) continue;
    try {
      const value = reader(request);
      if (isThenable(value)) {
        value.then(undefined, () => undefined);
        throw new TypeError(
          `readParams: reader ${i} gave a promise (a Standard Schema, a body or a signed cookie is read asynchronously): use readParamsAsync`,
        );
      }
      values[i] = value;
    } catch (error) {
      (failures ??= []).push(error);
    }
  }
  if (failures !== undefined) throw combinedErrors(failures);
  return values as ValuesOf<R>;
}

/**
 * {@link readParams} for readers that return promises (a body, a signed cookie): each is awaited, and
 * failures join, in the readers' order.
 */
export function readParamsAsync<const R extends readonly (ParamReader<unknown, never> | undefined)[]>(
  request: AnyRequest,
  readers: R,
): Promise<ValuesOf<R>> {
  const values = new Array<unknown>(readers.length);
  // by position, not by when each failed: the 400 lists the fields in the readers' order
  let failed: Failed | undefined;
  // every reader starts at once; only the ones that gave a promise are waited for
  let waiting: number[] | undefined;
  for (let i = 0; i < readers.length; i++) {
    const reader = readers[i] as ParamReader | undefined;
    if (reader === undefined) continue;
    try {
      const value = reader(request);
      values[i] = value;
      if (isThenable(value)) (waiting ??= []).push(i);
    } catch (error) {
      (failed ??= new Array(readers.length))[i] = { error };
    }
  }
  if (waiting === undefined)
    return failed === undefined ? Promise.resolve(values as ValuesOf<R>) : Promise.reject(joined(failed));
  if (waiting.length === 1 && failed === undefined) {
    // one promise and no failure besides (a `@Body()` alone): its value, or its error as it is (one
    // failure joins nothing), with no promise per reader and no `Promise.all`
    const i = waiting[0]!;
    return Promise.resolve(values[i]).then((value) => {
      values[i] = value;
      return values as ValuesOf<R>;
    });
  }
  return Promise.all(
    waiting.map((i) =>
      Promise.resolve(values[i]).then(
        (value) => {
          values[i] = value;
        },
        (error: unknown) => {
          (failed ??= new Array(readers.length))[i] = { error };
        },
      ),
    ),
  ).then(() => {
    if (failed !== undefined) throw joined(failed);
    return values as ValuesOf<R>;
  });
}

/** The failures of readers by position (a hole where a reader gave its value). */
type Failed = ({ readonly error: unknown } | undefined)[];

/** The one error for the readers' failures, in their order. */
function joined(failed: Failed): unknown {
  const failures: unknown[] = [];
  for (const f of failed) if (f !== undefined) failures.push(f.error);
  return combinedErrors(failures);
}
