import type { RoutedRequest } from "../request.js";
import { isStandardSchema, type SchemaOutput, type StandardSchema } from "../schema/standard.js";
import { validate } from "../schema/validate.js";
import { type DtoClass, type DtoOptions, dtoValidatorFor, validateDto } from "../validate/dto.js";
import { badRequest, fieldErrorsOf } from "../validate/field-errors.js";
import { recordOf } from "../validate/query.js";
import type { Form } from "./form.js";
import type { FormOptions } from "./limits.js";
import type { FormFile } from "./part.js";
import { asWebFile } from "./web-file.js";

/** Options of {@link formObject}: the form's limits, a DTO's class-validator options, and array keys. */
export interface FormObjectOptions extends FormOptions, DtoOptions {
  /** Names given as an array even when sent once (`tag=a` → `{ tag: ["a"] }`), files too. */
  readonly arrays?: readonly string[];
}

/** A value of the whole-form object: a text field's value, a file, or a repeated name's values in order. */
export type FormValue = string | FormFile | (string | FormFile)[];

/**
 * The whole form (`multipart/form-data` or urlencoded, read by `req.form()`) as one object, validated:
 * with a Standard Schema, its output; with a class-validator DTO class, an instance of it (needs
 * `switchyard-router/decorators` loaded). Every failing field is listed in one 400 (`"in": "body"`),
 * with its path and constraint; a body that is no form is a 415.
 *
 * The object is built as `queryObject` builds the query's: a text field is a string as sent (convert in
 * the schema: `z.coerce.number()`), a name sent more than once (or named in `arrays`) an array of its
 * values in order, a name not sent absent (a default or optional applies), `__proto__` a name like any
 * other. A file is its `FormFile` as a Web `File` too (see `asWebFile`): a schema checks it with its library's own
 * file schema — zod `z.file().max(1_000_000).mime(["image/png"])`, valibot
 * `v.pipe(v.file(), v.maxSize(1_000_000), v.mimeType(["image/png"]))`, arktype `"File"` — and zod's is
 * documented in OpenAPI as a binary string. A DTO class (class-transformer cannot rebuild a `File`)
 * checks each file through its description, a plain `{ field, name, type, size }`: `@IsDefined()`, or
 * `@ValidateNested() @Type(() => Png)` with `@Max(1_000_000) size` and `@Equals("image/png") type` on
 * `Png`; the instance then gets the very `FormFile`.
 * ```ts
 * const Upload = z.object({ title: z.string().min(1), avatar: z.file().max(1_000_000).mime(["image/png"]) });
 * route("POST /uploads", async (req) => save(await formObject(req, Upload)))
 * ```
 */
export function formObject<S extends StandardSchema>(
  request: RoutedRequest<object>,
  schema: S,
  options?: FormObjectOptions,
): Promise<SchemaOutput<S>>;
export function formObject<T extends object>(
  request: RoutedRequest<object>,
  type: DtoClass<T>,
  options?: FormObjectOptions,
): Promise<T>;
export async function formObject(
  request: RoutedRequest<object>,
  validator: StandardSchema | DtoClass,
  options: FormObjectOptions = {},
): Promise<unknown> {
  if (isStandardSchema(validator)) {
    const form = await request.form(options);
    const plain = formRecord(form, options.arrays);
    for (const name of form.files.keys()) plain[name] = await mapFiles(plain[name]!, asWebFile);
    return validate(validator, plain, "body", "", "the form is invalid");
  }
  if (typeof validator !== "function") {
    throw new TypeError(
      `formObject(): expected a Standard Schema (zod, valibot, arktype, …) or a class-validator DTO class, got ${validator === null ? "null" : typeof validator}`,
    );
  }
  dtoValidatorFor("formObject()", validator); // before the body is read: the app's mistake, not the client's
  const form = await request.form(options);
  const plain = formRecord(form, options.arrays);
  // class-transformer rebuilds every object through its constructor, which a File cannot survive: the
  // DTO checks each file's description, and its instance gets the very files
  const described: Record<string, unknown> = Object.assign(Object.create(null) as object, plain);
  for (const name of form.files.keys()) described[name] = await mapFiles(plain[name]!, fileFacts);
  let instance: object;
  try {
    instance = await validateDto("formObject()", validator, described, "body", options);
  } catch (error) {
    const fields = fieldErrorsOf(error);
    throw fields === undefined ? error : badRequest("the form is invalid", fields);
  }
  for (const name of form.files.keys())
    if (Object.hasOwn(instance, name)) (instance as Record<string, unknown>)[name] = plain[name];
  return instance;
}

/** What a DTO sees of a file: its field, name, type and size, as a plain object. */
function fileFacts(file: FormFile): Pick<FormFile, "field" | "name" | "type" | "size"> {
  return { field: file.field, name: file.name, type: file.type, size: file.size };
}

/** `value` with each file in it mapped (and awaited); text values as they are. */
async function mapFiles<T>(
  value: FormValue,
  map: (file: FormFile) => T | Promise<T>,
): Promise<string | T | (string | T)[]> {
  const one = async (item: string | FormFile): Promise<string | T> => (typeof item === "string" ? item : map(item));
  return Array.isArray(value) ? Promise.all(value.map(one)) : one(value);
}

/**
 * A form as one record (see {@link formObject}): its fields as `queryObject` reads a query, and its
 * files under their names, after any text values of the same name. No prototype.
 */
export function formRecord(form: Form, arrays: readonly string[] = []): Record<string, FormValue> {
  const record: Record<string, FormValue> = recordOf(form.fields, arrays);
  for (const [name, files] of form.files) {
    const sent = record[name];
    const all = [...(sent === undefined ? [] : Array.isArray(sent) ? sent : [sent]), ...files];
    record[name] = all.length > 1 || arrays.includes(name) ? all : all[0]!;
  }
  return record;
}
