import type { FormFile } from "./part.js";

/**
 * `file` as a Web `File` that is still the same `FormFile`: a whole-form schema checks it with its
 * library's own file schema (`z.file()`, valibot's `v.file()`, arktype's `"File"`: each tests
 * `instanceof File`), and the handler reads it as any `FormFile` (its content is read from `file`, as
 * fast as before). A plain `File` with the members put on it, not a subclass: libraries treat a
 * built-in class's instances as values (arktype clones an object of any other class before a morph,
 * which a `File` cannot survive). A `File` already is one. Made only for a whole-form schema: the
 * `File` holds a copy of the content.
 */
export async function asWebFile(file: FormFile): Promise<FormFile & File> {
  if (file instanceof File) return file as FormFile & File;
  // the part's type is a parsed media type (lower-case ASCII), which File keeps as it is
  // a FormFile's bytes are never over a SharedArrayBuffer (Node's types cannot know)
  const web = new File([(await file.bytes()) as Uint8Array<ArrayBuffer>], file.name, { type: file.type });
  return Object.assign(web, {
    kind: "file" as const,
    field: file.field,
    stream: () => file.stream(),
    bytes: () => file.bytes(),
    text: () => file.text(),
  });
}
