import { decodeText } from "../body.js";
import type { FormFile } from "./part.js";

/** A file whose content is in memory (what `req.form()` collects): read as often as wanted. */
export class BufferedFile implements FormFile {
  readonly kind = "file";

  constructor(
    readonly field: string,
    readonly name: string,
    readonly type: string,
    private readonly content: Uint8Array,
  ) {}

  get size(): number {
    return this.content.byteLength;
  }

  stream(): ReadableStream<Uint8Array> {
    const content = this.content;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        if (content.byteLength > 0) controller.enqueue(content.slice());
        controller.close();
      },
    });
  }

  bytes(): Promise<Uint8Array> {
    return Promise.resolve(this.content.slice());
  }

  text(): Promise<string> {
    return Promise.resolve(decodeText(this.content));
  }
}
