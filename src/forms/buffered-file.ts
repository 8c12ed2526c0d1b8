import { decodeText } from "../body.js";
import type { FormFile } from "./part.js";

/**
 * A file whose content is in memory (what `req.form()` collects): read as often as wanted. It is a Web
 * `File` itself (every runtime has one), with the `FormFile` members on it, so a schema library's own
 * file schema checks it in a whole-form schema — `z.file().max(…).mime(…)`, valibot's `v.file()`,
 * arktype's `"File"` — and it can be put in a `FormData` as it is. A plain `File`, not a subclass:
 * libraries treat a built-in class's instances as values (arktype clones an object of any other class
 * before a morph, which a `File` cannot survive). The content is held once, by the `File`.
 */
export function bufferedFile(field: string, name: string, type: string, content: Uint8Array): FormFile & File {
  // the part's type is a parsed media type (lower-case ASCII), which File keeps as it is
  const file = new File([content], name, { type });
  const bytes = async () => new Uint8Array(await file.arrayBuffer());
  return Object.assign(file, {
    kind: "file" as const,
    field,
    bytes,
    // as every FormFile decodes (invalid bytes → U+FFFD)
    text: async () => decodeText(await bytes()),
  });
}
