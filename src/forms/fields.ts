import { absentValue, allValues, type ParamOptions, parsedValue } from "../params.js";
import type { PathParser } from "../parsers/parser.js";
import { Text } from "../parsers/text.js";
import { isStandardSchema, type SchemaOutput, type StandardSchema } from "../schema/standard.js";
import { validateValue } from "../schema/validate.js";
import type { Form } from "./form.js";
import type { FormFile } from "./part.js";

/*
 * A form's fields read with the path parsers or a Standard Schema, as query parameters are
 * (`queryParam`): a missing (unless optional) or invalid field is a 400 listing it as
 * `{ "in": "body", "field": name, "constraint" }`, the shape `readParams`/`readParamsAsync` merge, so
 * every bad field of a request is answered in one 400:
 * ```ts
 * const form = await req.form();
 * const [title, count] = await readParamsAsync(req, [() => formField(form, "title", Title), () => formField(form, "count", Int)]);
 * ```
 */

/**
 * Reads one text field of a form, parsed with `parser` (`Text` unless given): its first value. Missing
 * (unless `optional`) or unparsable: throws a 400 `HttpError` naming the field and the type. An empty
 * value (`title=`) is present.
 *
 * With a Standard Schema (zod, valibot, arktype, …) instead of a parser, the field's value as sent (a
 * string: convert in the schema, `z.coerce.number()`) is validated by the schema, and the reader gives a
 * **promise** of its output (a schema may validate asynchronously). A field not sent is `undefined`
 * when `optional`; otherwise the schema gets `undefined`, so its default or optional applies, and a
 * schema that refuses it is the 400 saying the field is `required`. A value it refuses is the 400
 * listing its issues (`"in": "body"`, constraint: the library's code).
 */
export interface FormFieldReader {
  (form: Form, name: string): string;
  <S extends StandardSchema>(
    form: Form,
    name: string,
    schema: S,
    options: ParamOptions & { readonly optional: true },
  ): Promise<SchemaOutput<S> | undefined>;
  <S extends StandardSchema>(form: Form, name: string, schema: S, options?: ParamOptions): Promise<SchemaOutput<S>>;
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
  type: PathParser<unknown> | StandardSchema = Text,
  options: ParamOptions = {},
) => {
  const value = form.fields.get(name);
  if (isStandardSchema(type))
    return validateValue("formField", name, type, value ?? undefined, options.optional === true);
  return value === null ? absentValue("formField", name, type, options) : parsedValue("formField", name, type, value);
}) as FormFieldReader;

/**
 * Every value of the repeated form field `name` (`tag=a&tag=b`), each parsed with `parser`; `[]` when
 * there is none. One unparsable value throws a 400 naming the field.
 *
 * With a Standard Schema, the schema gets the array of the values as sent (`[]` when none), so it can
 * bound their count as well as check each (`z.array(z.string().min(2)).max(5)`); a promise of its
 * output, or a 400 whose fields name the failing value (`tag.1`).
 */
export function formFields(form: Form, name: string): string[];
export function formFields<S extends StandardSchema>(form: Form, name: string, schema: S): Promise<SchemaOutput<S>>;
export function formFields<T>(form: Form, name: string, parser: PathParser<T>): T[];
export function formFields(
  form: Form,
  name: string,
  type: PathParser<unknown> | StandardSchema = Text,
): unknown[] | Promise<unknown> {
  return allValues("formField", name, type, form.fields.getAll(name));
}

const FILE = { name: "file" } as const;

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
  return file ?? absentValue("file", name, FILE, options);
}

/** Every file sent as `name`, in order; `[]` when there is none. */
export function formFiles(form: Form, name: string): FormFile[] {
  return [...(form.files.get(name) ?? [])];
}
