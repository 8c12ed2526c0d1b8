import { HttpError, isHttpError, withoutStack } from "../errors.js";

/*
 * The one 400 every reader answers — query and header values, cookies, form fields, a JSON body,
 * whichever parser or validator (a path type, a Standard Schema, class-validator) found the fault:
 * `{ "error": "…", "errors": [{ "in", "field", "constraint", "message" }, …] }`, one entry per failing
 * field and constraint.
 */

/** Where a named value of a request is: its query, its headers or its cookies. */
export type ValueSource = "query" | "header" | "cookie";

/** One failing field of a 400: where it is, its name, the constraint it fails, and a sentence. */
export interface FieldError {
  /** Where the field is: `query`, `header`, `cookie` or `body`. */
  readonly in: ValueSource | "body";
  /**
   * The query parameter, header or cookie name, or the path of the failing value inside it (`tag.1` for
   * the second value of a repeated key), or the body property's path (`address.city`, `lines.1.qty`);
   * `""` for the body as a whole.
   */
  readonly field: string;
  /**
   * What it fails: `required`, a parser's name (`Int`), `signature` (a signed cookie whose signature is
   * wrong), a class-validator constraint (`isEmail`), or a schema library's code for the issue (zod's
   * `too_small`, valibot's `min_length`, arktype's `minLength`).
   */
  readonly constraint: string;
  /** The failure, in words. */
  readonly message: string;
}

/**
 * The 400 for failing fields: JSON `{ "error": message, "errors": [FieldError, …] }`. It carries no stack
 * trace (see `withoutStack`): the fields say what is wrong, and a 400 is answered, never logged.
 */
export function badRequest(message: string, errors: readonly FieldError[]): HttpError {
  return withoutStack(() => new HttpError(400, message, { details: { errors } }));
}

/** The failing fields of a {@link badRequest} error; `undefined` for any other error. */
export function fieldErrorsOf(error: unknown): readonly FieldError[] | undefined {
  if (!isHttpError(error) || error.status !== 400) return undefined;
  const errors = error.details?.errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : undefined;
}

const NOUN = { query: "query parameter", header: "header", cookie: "cookie" } as const;

/** A named value in messages: `the query parameter "page"`, `the header "x-api-key"`. */
export function valueNamed(where: ValueSource, name: string): string {
  return `the ${NOUN[where]} ${JSON.stringify(name)}`;
}

/** One error for several: the 400s' failing fields merged, or the first error that is not such a 400. */
export function combinedErrors(all: readonly unknown[]): unknown {
  // one error thrown to several readers (a form that could not be read, for each form parameter) counts once
  const failures = [...new Set(all)];
  if (failures.length === 1) return failures[0];
  const lists = failures.map(fieldErrorsOf);
  const other = lists.indexOf(undefined);
  if (other !== -1) return failures[other];
  return badRequest(
    failures.map((f) => (f as Error).message).join("; "),
    lists.flatMap((l) => l!),
  );
}
