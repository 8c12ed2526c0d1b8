import type { BodySource } from "../body.js";
import { isHttpError } from "../errors.js";
import { parseDisposition } from "./disposition.js";
import { malformed, overLimit, type PartRef } from "./errors.js";
import { safeFileName } from "./file-name.js";
import type { FormLimits } from "./limits.js";
import { loadMultipasta, type Parser, type ParserError, type PartInfo } from "./load.js";
import { parseMediaType } from "../media-type.js";
import type { FormPart } from "./part.js";
import { type FileFeed, StreamedFile } from "./streamed-file.js";
import { utf8Encoder, utf8Length } from "../utf8.js";

/*
 * A multipart/form-data body read as a stream of parts, in order. The request body is pulled one chunk
 * at a time, only when the handler wants more (the next part, or more of a file it reads), and each
 * chunk goes through multipasta's push parser, whose callbacks check every limit as the bytes arrive.
 * A field is held whole (within fieldBytes); a file's content is handed to its stream as it comes, so
 * at most about a chunk of it is in memory. Over a limit or malformed: the body is left unread (the
 * adapter lets the rest flow by) and the iterator, and any file being read, fail with the 413 or 400.
 */

/** The bytes of the epilogue (after the closing boundary) read before the rest is left unread. */
const EPILOGUE_BUDGET = 64 * 1024;

const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** The part being parsed: how errors name it, and its file. */
interface Current {
  readonly ref: PartRef;
  readonly file: StreamedFile | undefined;
}

/** The parts of a multipart/form-data body, as an async iterator (see the file's comment). */
export class MultipartReader implements AsyncIterableIterator<FormPart>, FileFeed {
  private parser: Parser | undefined;
  /** Parts parsed and not yet handed out (`head` is the next one). */
  private readonly queue: FormPart[] = [];
  private head = 0;
  /** The file handed out last: skipped if the handler moves on before reading it to its end. */
  private handedOut: StreamedFile | undefined;
  private parsing: Current | undefined;
  private partCount = 0;
  private fieldCount = 0;
  private fileCount = 0;
  private received = 0;
  private failure: unknown;
  /** The closing boundary was read, or the body was left: no more parts. */
  private finished = false;
  /** The handler left the parts (see {@link return}). */
  private left = false;
  private drained = false;
  private pumping: Promise<void> | undefined;
  /** The end of the last chunk, held back to the next write (see {@link feed}). */
  private carry: Uint8Array | null = null;
  private readonly delimiter: Uint8Array;

  constructor(
    private readonly source: BodySource,
    private readonly boundary: string,
    private readonly limits: FormLimits,
  ) {
    this.delimiter = utf8Encoder.encode(`\r\n--${boundary}`);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<FormPart, undefined>> {
    if (this.left) return { done: true, value: undefined };
    this.handedOut?.skip();
    for (;;) {
      if (this.head < this.queue.length) {
        const part = this.queue[this.head]!;
        this.queue[this.head++] = undefined as unknown as FormPart;
        if (this.head === this.queue.length) this.queue.length = this.head = 0;
        if (part.kind === "file") this.handedOut = part as StreamedFile;
        return { done: false, value: part };
      }
      if (this.failure !== undefined) throw this.failure;
      if (this.finished) {
        await this.drainEpilogue();
        return { done: true, value: undefined };
      }
      await this.pump();
    }
  }

  /**
   * The handler leaves the parts (`break` or `return` out of `for await`): no more parts, and the rest
   * of the body is not read. A file whose stream the handler is reading (`return part.bytes()` from
   * inside the loop) stays readable to its end, or until its stream is cancelled; then the body is left.
   */
  async return(): Promise<IteratorResult<FormPart, undefined>> {
    if (this.left) return { done: true, value: undefined };
    this.left = true;
    for (let i = this.head; i < this.queue.length; i++) (this.queue[i] as Partial<StreamedFile>).skip?.();
    this.queue.length = this.head = 0;
    if (this.handedOut?.reading !== true) {
      this.handedOut?.skip();
      this.leaveBody();
    }
    return { done: true, value: undefined };
  }

  released(): void {
    if (this.left) this.leaveBody();
  }

  /** No more is read: the adapter lets the rest of the body flow by (or cancels it). */
  private leaveBody(): void {
    if (this.finished || this.failure !== undefined) return;
    this.finished = this.drained = true;
    this.source.stop();
  }

  /** Feeds the parser one more chunk of the body, or its end; one at a time. Never rejects. */
  pump(): Promise<void> {
    this.pumping ??= this.pumpOnce().finally(() => {
      this.pumping = undefined;
    });
    return this.pumping;
  }

  private async pumpOnce(): Promise<void> {
    if (this.failure !== undefined || this.finished) return;
    try {
      this.parser ??= await this.makeParser();
      const chunk = await this.source.read();
      if (this.failure !== undefined || this.finished) return;
      if (chunk === null) this.endBody();
      else this.feed(chunk);
    } catch (error) {
      this.fail(isHttpError(error) || this.parser === undefined ? error : this.parserFailure(error));
    }
  }

  /**
   * An error multipasta itself threw (not one of the callbacks' HttpErrors): it throws on headers it
   * cannot decode, such as a `filename*` whose escapes are not UTF-8 (`iso-8859-1''caf%E9`).
   */
  private parserFailure(error: unknown): Error {
    return malformed("headers", "its headers cannot be read", { index: this.partCount + 1 }, error);
  }

  private fail(error: unknown): void {
    if (this.failure !== undefined) return;
    this.failure = error;
    if (!this.finished) this.source.stop();
    this.handedOut?.fail(error);
    this.parsing?.file?.fail(error);
    for (let i = this.head; i < this.queue.length; i++) (this.queue[i] as Partial<StreamedFile>).fail?.(error);
  }

  /**
   * One body chunk into the parser. multipasta (0.2.8) misreads a write that ends one byte after a
   * delimiter (`\r\n--boundary-` | `-\r\n`: the closing `--` split in two), so such a last byte is held
   * back to the next write, and a write is at least a delimiter and one byte long (or the last one).
   */
  private feed(chunk: Uint8Array): void {
    this.received += chunk.byteLength;
    if (this.received > this.limits.totalBytes) throw overLimit("totalBytes", this.limits.totalBytes);
    // a plain Uint8Array view (no copy), so file chunks are the same type on every runtime
    let data = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.carry !== null) {
      const joined = new Uint8Array(this.carry.byteLength + data.byteLength);
      joined.set(this.carry);
      joined.set(data, this.carry.byteLength);
      data = joined;
      this.carry = null;
    }
    const n = this.delimiter.byteLength;
    if (data.byteLength <= n) {
      this.carry = data;
      return;
    }
    if (this.endsOneAfterDelimiter(data)) {
      this.carry = data.subarray(data.byteLength - 1);
      data = data.subarray(0, data.byteLength - 1);
    }
    this.parser!.write(data);
  }

  private endsOneAfterDelimiter(data: Uint8Array): boolean {
    const delimiter = this.delimiter;
    const start = data.byteLength - 1 - delimiter.byteLength;
    for (let i = 0; i < delimiter.byteLength; i++) if (data[start + i] !== delimiter[i]) return false;
    return true;
  }

  private endBody(): void {
    if (this.carry !== null) {
      this.parser!.write(this.carry);
      this.carry = null;
    }
    this.parser!.end();
    if (!this.finished) throw this.unterminated();
  }

  private unterminated(): Error {
    if (this.partCount === 0)
      return malformed(
        "boundary",
        `the body has no part: it does not start with the boundary ${JSON.stringify(this.boundary)} of its content-type`,
      );
    return malformed("unterminated", "the body ends before the closing boundary", this.parsing?.ref);
  }

  private async drainEpilogue(): Promise<void> {
    if (this.drained) return;
    this.drained = true;
    try {
      for (let budget = EPILOGUE_BUDGET; budget >= 0; ) {
        const chunk = await this.source.read();
        if (chunk === null) return;
        budget -= chunk.byteLength;
      }
    } catch {
      return; // the client left after the closing boundary: nothing was lost
    }
    this.source.stop();
  }

  private async makeParser(): Promise<Parser> {
    const { make } = await loadMultipasta();
    return make({
      headers: { "content-type": `multipart/form-data; boundary="${this.boundary}"` },
      maxFieldSize: this.limits.fieldBytes,
      isFile: (info) => this.startPart(info),
      onField: (_info, value) => this.endField(value),
      onFile: () => this.startFile(),
      onError: (error) => {
        throw this.errorOf(error);
      },
      onDone: () => {
        this.finished = true;
      },
    });
  }

  /** A part's headers are read: count it, check them, and say whether it is a file. */
  private startPart(info: PartInfo): boolean {
    if (this.finished) return false; // the epilogue, after the closing boundary: not read
    const limits = this.limits;
    const index = ++this.partCount;
    this.parsing = { ref: { index }, file: undefined };
    if (index > limits.parts) throw overLimit("parts", limits.parts, { index });
    if (headerBytesOf(info) > limits.headerBytes) throw overLimit("headerBytes", limits.headerBytes, { index });
    const header = info.headers["content-disposition"];
    if (typeof header !== "string")
      throw malformed(
        "disposition",
        header === undefined
          ? "it has no Content-Disposition header"
          : "it has more than one Content-Disposition header",
        { index },
      );
    const disposition = parseDisposition(header);
    if (typeof disposition === "string") throw malformed("disposition", disposition, { index });
    const name = disposition.name;
    const type = parseMediaType(single(info.headers["content-type"]))?.essence;
    // a file: a part with a filename, or with the type of an unnamed file (Node's FormData leaves out
    // an empty filename=""), as busboy and multipasta tell them
    if (disposition.filename === undefined && type !== "application/octet-stream") {
      this.parsing = { ref: { index, name }, file: undefined };
      if (++this.fieldCount > limits.fields) throw overLimit("fields", limits.fields, this.parsing.ref);
      return false;
    }
    const filename = safeFileName(disposition.filename ?? "");
    if (typeof filename !== "string") throw malformed("filename", filename.refused, { index, name });
    const ref = { index, name, filename };
    if (++this.fileCount > limits.files) throw overLimit("files", limits.files, ref);
    this.parsing = { ref, file: new StreamedFile(name, filename, type ?? "application/octet-stream", this) };
    return true;
  }

  private endField(value: Uint8Array): void {
    if (this.finished) return;
    const ref = this.parsing!.ref;
    if (value.byteLength > this.limits.fieldBytes) throw overLimit("fieldBytes", this.limits.fieldBytes, ref);
    this.queue.push({ kind: "field", field: ref.name!, value: utf8.decode(value) });
  }

  private startFile(): (chunk: Uint8Array | null) => void {
    const { ref, file } = this.parsing!;
    const limit = this.limits.fileBytes;
    this.queue.push(file!);
    let size = 0;
    return (chunk) => {
      if (this.finished) return;
      if (chunk === null) {
        file!.end();
        if (this.left) this.leaveBody(); // the file read after the handler left the loop is complete
        return;
      }
      size += chunk.byteLength;
      if (size > limit) throw overLimit("fileBytes", limit, ref);
      file!.push(chunk);
    };
  }

  private errorOf(error: ParserError): Error {
    const next: PartRef = { index: this.partCount + 1 };
    switch (error._tag) {
      case "BadHeaders":
        if (error.error.reason === "HeaderTooLarge") return overLimit("headerBytes", this.limits.headerBytes, next);
        return malformed(
          "headers",
          error.error.reason === "TooManyHeaders"
            ? "it has more than 100 header lines"
            : `its headers are malformed (${error.error.reason}: a line that starts with a space or tab, or a name with a character a header name cannot have)`,
          next,
        );
      case "InvalidDisposition":
        return malformed("disposition", "its Content-Disposition has no name", next);
      case "ReachedLimit":
        return overLimit("fieldBytes", this.limits.fieldBytes, this.parsing?.ref ?? next);
      case "EndNotReached":
        return this.unterminated();
      default:
        return malformed("boundary", "the multipart boundary is malformed");
    }
  }
}

function single(value: string | readonly string[] | undefined): string | null {
  return typeof value === "string" ? value : null;
}

/** The size of a part's header block as sent: each `name: value` line and its CRLF, and the blank line. */
function headerBytesOf(info: PartInfo): number {
  let size = 2;
  for (const [name, value] of Object.entries(info.headers)) {
    for (const one of typeof value === "string" ? [value] : value) size += name.length + 4 + utf8Length(one);
  }
  return size;
}
