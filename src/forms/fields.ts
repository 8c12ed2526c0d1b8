import { badRequest, type ParamOptions } from "../params.js";
import { NoParse, parseSegment, type PathParser } from "../parsers/parser.js";
import { Text } from "../parsers/text.js";
import type { Form } from "./form.js";
import type { FormFile } from "./part.js";

/*
 * A form's fields read with the path parsers, as query parameters are (`queryParam`): a missing (unless
 * optional) or unparsable field is a 400 listing it as `{ "in": "body", "field": name, "constraint" }`,
 * the shape `readParams`/`readParamsAsync` merge, so every bad field of a request is answered in one
 * 400:
 * ```ts
 * const form = await req.form();
 * const [title, count] = readParams(req, [() => formField(form, "title"), () => formField(form, "count", Int)]);
 * ```
 */

/**
 * Reads one text field of a form, parsed with `parser` (`Text` unless given): its first value. Missing
 * (unless `optional`) or unparsable: throws a 400 `HttpError` naming the field and the type. An empty
 * value (`title=`) is present.
 */
export interface FormFieldReader {
  (form: Form, name: string): string;
  (
    form: Form,
    name: string,
    parser: undefined,
    options: ParamOptions & { readonly optional: true },
  ): string | undefined;
  <T>(form: Form, name: string, parser: PathParser<T>): T;
  <T>(
    form: Form,
    name: string,
    parser: PathParser<T>,
    options: ParamOptions & { readonly optional: true },
  ): T | undefined;
  <T>(form: Form, name: string, parser?: PathParser<T>, options?: ParamOptions): T | undefined;
}

/** The form field `name`, e.g. `formField(form, "age", Int)`; see {@link FormFieldReader}. */
export const formField: FormFieldReader = ((
  form: Form,
  name: string,
  parser: PathParser<unknown> = Text,
  options: ParamOptions = {},
) => {
  const value = form.fields.get(name);
  if (value !== null) return parsedField(name, parser, value);
  if (options.optional === true) return undefined;
  throw required(name, parser.name, "form field");
}) as FormFieldReader;

/**
 * Every value of the repeated form field `name` (`tag=a&tag=b`), each parsed with `parser`; `[]` when
 * there is none. One unparsable value throws a 400 naming the field.
 */
export function formFields(form: Form, name: string): string[];
export function formFields<T>(form: Form, name: string, parser: PathParser<T>): T[];
export function formFields<T>(form: Form, name: string, parser: PathParser<T> = Text as unknown as PathParser<T>): T[] {
  return form.fields.getAll(name).map((value) => parsedField(name, parser, value));
}

/**
 * The file sent as `name` (the first, when several were): a 400 when there is none, unless `optional`
 * (then `undefined`).
 */
export function formFile(form: Form, name: string): FormFile;
export function formFile(
  form: Form,
  name: string,
  options: ParamOptions & { readonly optional: true },
): FormFile | undefined;
export function formFile(form: Form, name: string, options?: ParamOptions): FormFile | undefined;
export function formFile(form: Form, name: string, options: ParamOptions = {}): FormFile | undefined {
  const file = form.files.get(name)?.[0];
  if (file !== undefined || options.optional === true) return file;
  throw required(name, "file", "file");
}

/** Every file sent as `name`, in order; `[]` when there is none. */
export function formFiles(form: Form, name: string): FormFile[] {
  return [...(form.files.get(name) ?? [])];
}

/** A field's value read with `parser`; one it refuses is the 400 naming the field and the type. */
function parsedField<T>(name: string, parser: PathParser<T>, value: string): T {
  const result = parseSegment(parser, value);
  if (result !== NoParse) return result;
  return failField(name, parser.name, value);
}

function failField(name: string, type: string, value: string): never {
  throw badRequest(`the form field "${name}" is not a valid ${type}`, [
    { in: "body", field: name, constraint: type, message: `${JSON.stringify(value)} is not a valid ${type}` },
  ]);
}

function required(name: string, type: string, noun: string): Error {
  const message = `the ${noun} "${name}" is required`;
  return badRequest(message, [{ in: "body", field: name, constraint: "required", message: `${message} (${type})` }]);
}
