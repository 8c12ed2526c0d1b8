import { decodeText } from "../body.js";
import type { FormFile } from "./part.js";

/**
 * A file whose content is in memory (what `req.form()` collects): read as often as wanted. It is a Web
 * `File` too (every runtime has one), so a schema library's own file schema checks it in a whole-form
 * schema — `z.file().max(…).mime(…)`, valibot's `v.file()`, arktype's `"File"` — and it can be put in
 * a `FormData` as it is. The content is held once, by the `File`.
 */
export class BufferedFile extends File implements FormFile {
  readonly kind = "file";

  constructor(
    readonly field: string,
    name: string,
    type: string,
    content: Uint8Array,
  ) {
    // the part's type is a parsed media type (lower-case ASCII), which File keeps as it is
    super([content], name, { type });
  }

  override async bytes(): Promise<Uint8Array> {
    return new Uint8Array(await this.arrayBuffer());
  }

  // `text()` as every FormFile decodes (invalid bytes → U+FFFD), not Blob's own
  override async text(): Promise<string> {
    return decodeText(await this.bytes());
  }
}
