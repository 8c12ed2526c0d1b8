import { concat, decodeText } from "../body.js";
import type { FormFile } from "./part.js";

/** What a streamed file asks of the reader it came from. */
export interface FileFeed {
  /** Feeds the parser one more chunk (or the end); never rejects: failures reach the file through {@link StreamedFile.fail}. */
  pump(): Promise<void>;
  /** The handler cancelled the file's stream: it wants no more of it. */
  released(): void;
}

/**
 * A file part whose content streams from the request as the handler reads it: the reader feeds the
 * parser one body chunk each time the handler wants more, so at most a chunk of it is held here.
 */
export class StreamedFile implements FormFile {
  readonly kind = "file";
  private readonly chunks: Uint8Array[] = [];
  private received = 0;
  private ended = false;
  private error: unknown;
  private skipped = false;
  private taken = false;
  /** The handler has read the whole content. */
  private delivered = false;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;

  constructor(
    readonly field: string,
    readonly name: string,
    readonly type: string,
    private readonly feed: FileFeed,
  ) {}

  get size(): number | undefined {
    return this.ended ? this.received : undefined;
  }

  /** True while the handler reads the content (its stream was taken) and has not had all of it. */
  get reading(): boolean {
    return this.taken && !this.delivered && !this.skipped && this.error === undefined;
  }

  /** A chunk of content from the parser (dropped when the handler skipped the file). */
  push(chunk: Uint8Array): void {
    this.received += chunk.byteLength;
    if (!this.skipped) this.chunks.push(chunk);
  }

  /** The content is complete. */
  end(): void {
    this.ended = true;
  }

  /** The form failed (a limit, a malformed body, the client gone): a read now fails with `error`. */
  fail(error: unknown): void {
    if (this.ended || this.error !== undefined) return;
    this.error = error;
    this.chunks.length = 0;
    this.controller?.error(error);
  }

  /**
   * The handler moved on (asked for the next part, or left the parts): what it has not read of the
   * content is dropped and no more is kept, whether or not it had all arrived (so what a handler sees
   * does not depend on how the body was cut into chunks); a read of it fails, saying so.
   */
  skip(): void {
    if (this.delivered || this.skipped || this.error !== undefined) return;
    this.skipped = true;
    this.chunks.length = 0;
    this.controller?.error(
      new TypeError(
        `the file "${this.field}" was not read to its end before the next part was asked for (or the parts were left): the rest of it was skipped`,
      ),
    );
  }

  stream(): ReadableStream<Uint8Array> {
    if (this.taken)
      throw new TypeError(
        `the file "${this.field}" was already read: stream(), bytes() and text() read a streamed part once`,
      );
    this.taken = true;
    if (this.skipped)
      throw new TypeError(`the file "${this.field}" was skipped: read a file before asking for the next part`);
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          if (this.error !== undefined) controller.error(this.error);
        },
        pull: (controller) => this.pull(controller),
        cancel: () => {
          // the handler stops reading: the rest is not kept (the parts that follow can still be read)
          this.skipped = true;
          this.chunks.length = 0;
          this.feed.released();
        },
      },
      { highWaterMark: 0 },
    );
  }

  private async pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      if (this.error !== undefined || this.skipped) return; // the controller was errored already
      const chunk = this.chunks.shift();
      if (chunk !== undefined) {
        controller.enqueue(chunk);
        return;
      }
      if (this.ended) {
        this.delivered = true;
        controller.close();
        return;
      }
      await this.feed.pump();
    }
  }

  async bytes(): Promise<Uint8Array> {
    const reader = this.stream().getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      chunks.push(r.value);
      size += r.value.byteLength;
    }
    return chunks.length === 1 ? chunks[0]!.slice() : concat(chunks, size);
  }

  async text(): Promise<string> {
    return decodeText(await this.bytes());
  }
}
