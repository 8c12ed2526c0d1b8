import { BufferedFile } from "./buffered-file.js";
import type { FormFile, FormPart } from "./part.js";

/**
 * A whole form, as `req.form()` reads it: the text fields and the files, each in the order they came.
 * Any name is safe (`__proto__`, `constructor`): fields are a `URLSearchParams` and files a `Map`.
 * Read fields with `formField`/`formFields` (parsed with the path parsers, a 400 for a bad one) and
 * files with `formFile`/`formFiles`.
 */
export interface Form {
  /** The text fields in order, repeated names kept: `form.fields.get("title")`, `getAll("tag")`. */
  readonly fields: URLSearchParams;
  /** The files by field name, each name's in order; their content is in memory. */
  readonly files: ReadonlyMap<string, readonly FormFile[]>;
}

/** A {@link Form} of the given fields and files. */
export function formOf(fields: URLSearchParams, files: ReadonlyMap<string, readonly FormFile[]> = new Map()): Form {
  return Object.freeze({ fields, files });
}

/** Reads every part into a {@link Form}: fields as they are, each file's content into memory. */
export async function collectForm(parts: AsyncIterable<FormPart>): Promise<Form> {
  const fields = new URLSearchParams();
  const files = new Map<string, FormFile[]>();
  for await (const part of parts) {
    if (part.kind === "field") {
      fields.append(part.field, part.value);
      continue;
    }
    const file = new BufferedFile(part.field, part.name, part.type, await part.bytes());
    const list = files.get(part.field);
    if (list === undefined) files.set(part.field, [file]);
    else list.push(file);
  }
  return formOf(fields, files);
}
