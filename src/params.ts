import { HttpError, isHttpError } from "./errors.js";
import { NoParse, parseSegment, type PathParser } from "./parsers/parser.js";
import { Text } from "./parsers/text.js";
import type { RoutedRequest } from "./request.js";

/*
 * Query parameters, headers and cookies, read with the path parsers (WebGear reads them with the same
 * FromHttpApiData as path variables). Unlike a path segment, which decides which route answers and so
 * is a mismatch, a missing or malformed query parameter, header or cookie is the client's mistake about
 * a route that did answer: a 400 naming it. The `@Query`/`@Header`/`@Cookie` decorators are built on these.
 */

/** Where a named value of a request is: its query, its headers or its cookies. */
export type ValueSource = "query" | "header" | "cookie";

/** One failing field of a 400: where it is, its name, the constraint it fails, and a sentence. */
export interface FieldError {
  /** Where the field is: `query`, `header`, `cookie` or `body`. */
  readonly in: ValueSource | "body";
  /** The query parameter, header or cookie name, or the body property's path (`address.city`, `items.0.qty`). */
  readonly field: string;
  /**
   * What it fails: `required`, a parser's name (`Int`), `signature` (a signed cookie whose signature is
   * wrong), or a class-validator constraint (`isEmail`).
   */
  readonly constraint: string;
  /** The failure, in words. */
  readonly message: string;
}

/**
 * The 400 for failing fields: JSON `{ "error": message, "errors": [FieldError, …] }`.
 */
export function badRequest(message: string, errors: readonly FieldError[]): HttpError {
  return new HttpError(400, message, { details: { errors } });
}

/** Options of {@link queryParam}, {@link headerParam} and {@link cookieParam}. */
export interface ParamOptions {
  /** A missing value is `undefined` instead of a 400. */
  readonly optional?: boolean;
}

type AnyRequest = RoutedRequest<object>;

/**
 * Reads one named value of a request (a query parameter, a header or a cookie), parsed with `parser` (`Text`
 * unless given). Missing (unless `optional`) or unparsable: throws a 400 {@link HttpError} naming the
 * value and the type.
 */
export interface NamedValueReader {
  (request: AnyRequest, name: string): string;
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
  return ((request: AnyRequest, name: string, parser: PathParser<unknown> = Text, options: ParamOptions = {}) => {
    const value = get(request, name);
    return value === null ? absentValue(where, name, parser, options) : parsedValue(where, name, parser, value);
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
 */
export function queryParams(request: AnyRequest, name: string): string[];
export function queryParams<T>(request: AnyRequest, name: string, parser: PathParser<T>): T[];
export function queryParams<T>(
  request: AnyRequest,
  name: string,
  parser: PathParser<T> = Text as unknown as PathParser<T>,
): T[] {
  return request.query.getAll(name).map((value) => parsedValue("query", name, parser, value));
}

const NOUN = { query: "query parameter", header: "header", cookie: "cookie" } as const;

/** A named value that was not sent: `undefined` when `optional`, else the 400 saying it is required. */
export function absentValue<T>(
  where: ValueSource,
  name: string,
  parser: PathParser<T>,
  options: ParamOptions,
): undefined {
  if (options.optional === true) return undefined;
  const message = `the ${NOUN[where]} "${name}" is required`;
  throw badRequest(message, [
    { in: where, field: name, constraint: "required", message: `${message} (${parser.name})` },
  ]);
}

/** A named value read with `parser`; one it refuses is the 400 naming the value and the type. */
export function parsedValue<T>(where: ValueSource, name: string, parser: PathParser<T>, value: string): T {
  const result = parseSegment(parser, value);
  if (result !== NoParse) return result;
  const message = `the ${NOUN[where]} "${name}" is not a valid ${parser.name}`;
  throw badRequest(message, [
    {
      in: where,
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
 * in one 400 (an error that is not such a 400 is thrown as it is). The `@Query`/`@Header`/`@Body`
 * decorators fill a method's parameters with it:
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
      values[i] = reader(request);
    } catch (error) {
      (failures ??= []).push(error);
    }
  }
  if (failures !== undefined) throw combined(failures);
  return values as ValuesOf<R>;
}

/**
 * {@link readParams} for readers that return promises (a body, a signed cookie): each is awaited, and
 * failures join, in the readers' order.
 */
export async function readParamsAsync<const R extends readonly (ParamReader<unknown, never> | undefined)[]>(
  request: AnyRequest,
  readers: R,
): Promise<ValuesOf<R>> {
  const values = new Array<unknown>(readers.length);
  // by position, not by when each failed: the 400 lists the fields in the readers' order
  const failed = new Array<{ readonly error: unknown } | undefined>(readers.length);
  await Promise.all(
    readers.map(async (reader, i) => {
      if (reader === undefined) return;
      try {
        values[i] = await (reader as ParamReader)(request);
      } catch (error) {
        failed[i] = { error };
      }
    }),
  );
  const failures = failed.flatMap((f) => (f === undefined ? [] : [f.error]));
  if (failures.length > 0) throw combined(failures);
  return values as ValuesOf<R>;
}

/** One error for several: the 400s' failing fields merged, or the first error that is not such a 400. */
function combined(failures: readonly unknown[]): unknown {
  if (failures.length === 1) return failures[0];
  const lists = failures.map(fieldErrorsOf);
  const other = lists.indexOf(undefined);
  if (other !== -1) return failures[other];
  return badRequest(
    failures.map((f) => (f as Error).message).join("; "),
    lists.flatMap((l) => l!),
  );
}

function fieldErrorsOf(error: unknown): readonly FieldError[] | undefined {
  if (!isHttpError(error) || error.status !== 400) return undefined;
  const errors = error.details?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : undefined;
}
