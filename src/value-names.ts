import { type FieldError, type ValueSource, valueNamed } from "./validate/field-errors.js";

/*
 * How the 400 names a value read by name — a query parameter, a header, a cookie, or a form's text
 * field or file — so that every reader of one (params.ts, the schema reader, the form readers) words
 * its 400 the same way. A form's fields and files are in the body: their failing fields say
 * `"in": "body"`.
 */

/** Where a value read by name is: a query parameter, a header, a cookie, or a form's text field or file. */
export type NamedSource = ValueSource | "formField" | "file";

/** Where the 400's failing field says the value is (`in`): a form's fields and files are in the body. */
export function sourceIn(where: NamedSource): FieldError["in"] {
  return where === "formField" || where === "file" ? "body" : where;
}

/** The value in messages: `the query parameter "page"`, `the form field "title"`, `the file "avatar"`. */
export function sourceNamed(where: NamedSource, name: string): string {
  if (where === "formField") return `the form field ${JSON.stringify(name)}`;
  if (where === "file") return `the file ${JSON.stringify(name)}`;
  return valueNamed(where, name);
}
