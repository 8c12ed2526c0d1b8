/*
 * The parts of a form as a handler gets them: text fields, and files as one neutral object (the same
 * on every runtime): a name, a type, a size when known, and content read once as a Web stream or
 * whole.
 */

/** A text field of a form: `<input name="title">`. */
export interface FormField {
  readonly kind: "field";
  /** The form field name (`title`); any string, `__proto__` included. */
  readonly field: string;
  /** The value, as UTF-8 text (invalid bytes become U+FFFD). */
  readonly value: string;
}

/**
 * An uploaded file: `<input type="file" name="avatar">`. Its content is read once: as a Web
 * `ReadableStream` (`stream()`, to pipe it elsewhere without holding it), or whole (`bytes()`,
 * `text()`). From `req.parts()` the content streams from the request as the handler reads it; from
 * `req.form()` it was read into memory already, and can be read again.
 */
export interface FormFile {
  readonly kind: "file";
  /** The form field name (`avatar`). */
  readonly field: string;
  /**
   * The file name the client gave, without any directory (`../../etc/passwd` is `passwd`); `""` when
   * the client gave an empty one (an empty file input). Safe to show, not to trust: pick your own
   * name for storage.
   */
  readonly name: string;
  /** The part's media type (`image/png`, without parameters); `application/octet-stream` when none was given. */
  readonly type: string;
  /** The size in bytes, once known: always for `req.form()`; for a streamed part, once it was read to its end. */
  readonly size: number | undefined;
  /**
   * The content as a Web stream. Over `limits.fileBytes`, or a form broken after it, the stream errors
   * with the `HttpError` (413 or 400) the handler should throw on. A streamed part's content can be read once.
   */
  stream(): ReadableStream<Uint8Array>;
  /** The whole content (within `limits.fileBytes`). */
  bytes(): Promise<Uint8Array>;
  /** The whole content as UTF-8 text. */
  text(): Promise<string>;
}

/** One part of a form: a text field or a file. */
export type FormPart = FormField | FormFile;
