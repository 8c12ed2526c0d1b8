import { HttpError } from "./errors.js";
import { NoParse, parseSegment, type PathParser } from "./parsers/parser.js";
import { Text } from "./parsers/text.js";
import type { RoutedRequest } from "./request.js";

/*
 * Query parameters and headers, read with the path parsers (WebGear reads them with the same
 * FromHttpApiData as path variables). Unlike a path segment, which decides which route answers and so
 * is a mismatch, a missing or malformed query parameter or header is the client's mistake about a
 * route that did answer: a 400 naming it. The `@Query`/`@Header` decorators are built on these.
 */

/** One failing field of a 400: where it is, its name, the constraint it fails, and a sentence. */
export interface FieldError {
  /** Where the field is: `query`, `header` or `body`. */
  readonly in: "query" | "header" | "body";
  /** The query parameter or header name, or the body property's path (`address.city`, `items.0.qty`). */
  readonly field: string;
  /** What it fails: `required`, a parser's name (`Int`), or a class-validator constraint (`isEmail`). */
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

/** Options of {@link queryParam} and {@link headerParam}. */
export interface ParamOptions {
  /** A missing value is `undefined` instead of a 400. */
  readonly optional?: boolean;
}

type AnyRequest = RoutedRequest<object>;

/**
 * The query parameter `name` (its first value), parsed with `parser` (`Text` unless given), e.g.
 * `queryParam(req, "page", Int)`. Missing (unless `optional`) or unparsable: throws a 400
 * {@link HttpError} naming the parameter and the type. An empty value (`?page=`) is present.
 */
export function queryParam<T = string>(request: AnyRequest, name: string, parser?: PathParser<T>): T;
export function queryParam<T = string>(request: AnyRequest, name: string, parser: PathParser<T> | undefined, options: ParamOptions & { readonly optional: true }): T | undefined;
export function queryParam<T = string>(request: AnyRequest, name: string, parser?: PathParser<T>, options?: ParamOptions): T | undefined;
export function queryParam<T>(request: AnyRequest, name: string, parser: PathParser<T> = Text as unknown as PathParser<T>, options: ParamOptions = {}): T | undefined {
  const value = request.query.get(name);
  if (value === null) return absent("query", name, parser, options);
  return parsed("query", name, parser, value);
}

/**
 * Every value of the repeated query key `name` (`?tag=a&tag=b`), each parsed with `parser`; `[]` when
 * there is none. One unparsable value throws a 400 naming the parameter.
 */
export function queryParams<T = string>(request: AnyRequest, name: string, parser: PathParser<T> = Text as unknown as PathParser<T>): T[] {
  return request.query.getAll(name).map((value) => parsed("query", name, parser, value));
}

/**
 * The request header `name` (any case), parsed with `parser` (`Text` unless given), e.g.
 * `headerParam(req, "x-api-key")`. Missing (unless `optional`) or unparsable: throws a 400
 * {@link HttpError} naming the header.
 */
export function headerParam<T = string>(request: AnyRequest, name: string, parser?: PathParser<T>): T;
export function headerParam<T = string>(request: AnyRequest, name: string, parser: PathParser<T> | undefined, options: ParamOptions & { readonly optional: true }): T | undefined;
export function headerParam<T = string>(request: AnyRequest, name: string, parser?: PathParser<T>, options?: ParamOptions): T | undefined;
export function headerParam<T>(request: AnyRequest, name: string, parser: PathParser<T> = Text as unknown as PathParser<T>, options: ParamOptions = {}): T | undefined {
  const value = request.headers.get(name);
  if (value === null) return absent("header", name, parser, options);
  return parsed("header", name, parser, value);
}

const NOUN = { query: "query parameter", header: "header" } as const;

function absent<T>(where: "query" | "header", name: string, parser: PathParser<T>, options: ParamOptions): undefined {
  if (options.optional === true) return undefined;
  const message = `the ${NOUN[where]} "${name}" is required`;
  throw badRequest(message, [{ in: where, field: name, constraint: "required", message: `${message} (${parser.name})` }]);
}

function parsed<T>(where: "query" | "header", name: string, parser: PathParser<T>, value: string): T {
  const result = parseSegment(parser, value);
  if (result !== NoParse) return result;
  const message = `the ${NOUN[where]} "${name}" is not a valid ${parser.name}`;
  throw badRequest(message, [{ in: where, field: name, constraint: parser.name, message: `${JSON.stringify(value)} is not a valid ${parser.name}` }]);
}
