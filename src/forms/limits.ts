/*
 * The limits of a form body (multipart/form-data or application/x-www-form-urlencoded): each has a
 * default and an option, and each is enforced while the bytes arrive, so a form over one costs a
 * bounded amount of memory and an early answer (413 for a size, never the whole upload read).
 */

/** The limits of one form body. Every one is enforced while the body arrives. */
export interface FormLimits {
  /** The most bytes of one file part's content. Default 10 MiB. */
  readonly fileBytes: number;
  /** The most file parts (parts with a `filename`). Default 10. */
  readonly files: number;
  /** The most text fields. Default 1000. */
  readonly fields: number;
  /** The most bytes of one text field's value. Default 1 MiB. */
  readonly fieldBytes: number;
  /**
   * The most bytes of one part's header block (its `Content-Disposition`, `Content-Type`, … lines).
   * Default 8 KiB; at most 16 KiB, the parser's own cap.
   */
  readonly headerBytes: number;
  /** The most parts in all (fields and files). Default 1000. */
  readonly parts: number;
  /**
   * The most bytes of the whole body, boundaries and headers included. Default: the pipeline's
   * `bodyLimit` (1 MiB unless set), as for `json()`; raise it for a route that takes uploads.
   */
  readonly totalBytes: number;
}

/** Options of `req.form()` and `req.parts()`. */
export interface FormOptions {
  /** Limits to change; the others keep their defaults (see {@link FormLimits}). */
  readonly limits?: Partial<FormLimits>;
}

/** The most `headerBytes` can be: the multipart parser refuses a part header block over 16 KiB itself. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** The default limits, `totalBytes` aside (it defaults to the pipeline's body limit). */
export const DEFAULT_FORM_LIMITS: Readonly<Omit<FormLimits, "totalBytes">> = Object.freeze({
  fileBytes: 10 * 1024 * 1024,
  files: 10,
  fields: 1000,
  fieldBytes: 1024 * 1024,
  headerBytes: 8 * 1024,
  parts: 1000,
});

const NAMES: readonly (keyof FormLimits)[] = [
  "fileBytes",
  "files",
  "fields",
  "fieldBytes",
  "headerBytes",
  "parts",
  "totalBytes",
];

/**
 * The limits a read works with: the given ones over the defaults (`totalBytes` over `bodyLimit`). A
 * limit that is not a number ≥ 0 (`Infinity` is one), an unknown name, or a `headerBytes` over
 * {@link MAX_HEADER_BYTES} is a `RangeError` naming it: the route's mistake, found on its first request.
 */
export function formLimits(options: FormOptions | undefined, bodyLimit: number): FormLimits {
  const given: Partial<FormLimits> = options?.limits ?? {};
  if (typeof given !== "object" || given === null) throw new TypeError("form options: limits must be an object");
  for (const name of Object.keys(given)) {
    if (!NAMES.includes(name as keyof FormLimits))
      throw new RangeError(`form options: unknown limit "${name}" (the limits are ${NAMES.join(", ")})`);
  }
  const limits: FormLimits = { ...DEFAULT_FORM_LIMITS, totalBytes: bodyLimit, ...withoutUndefined(given) };
  for (const name of NAMES) {
    const value = limits[name];
    if (typeof value !== "number" || !(value >= 0))
      throw new RangeError(`form options: limits.${name} must be a number ≥ 0, got ${String(value)}`);
  }
  if (limits.headerBytes > MAX_HEADER_BYTES)
    throw new RangeError(
      `form options: limits.headerBytes is at most ${MAX_HEADER_BYTES} (the multipart parser's own cap), got ${limits.headerBytes}`,
    );
  return limits;
}

function withoutUndefined(given: Partial<FormLimits>): Partial<FormLimits> {
  const out: Partial<Record<keyof FormLimits, number>> = {};
  for (const name of NAMES) if (given[name] !== undefined) out[name] = given[name];
  return out;
}
