import { HttpError } from "../errors.js";
import type { FormLimits } from "./limits.js";

/*
 * The answers of a form that breaks a rule: 413 for a size or count over its limit, 400 for a body
 * that is not a well-formed form. The JSON body names the part (its place, and its name and file name
 * once known) and, for a 413, the limit.
 */

/** A part of a form, as an error names it. */
export interface PartRef {
  /** Its place in the body, from 1. */
  readonly index: number;
  /** Its form field name, once its headers are read. */
  readonly name?: string;
  /** Its file name, for a file part. */
  readonly filename?: string;
}

/** How a part is called in a message: `the file "avatar" ("me.png", part 2)`. */
export function describePart(part: PartRef): string {
  if (part.name === undefined) return `part ${part.index}`;
  const name = JSON.stringify(part.name);
  return part.filename === undefined
    ? `the field ${name} (part ${part.index})`
    : `the file ${name} (${JSON.stringify(part.filename)}, part ${part.index})`;
}

const WHAT: Readonly<Record<keyof FormLimits, string>> = {
  fileBytes: "bytes per file",
  files: "files",
  fields: "fields",
  fieldBytes: "bytes per field",
  headerBytes: "bytes of part headers",
  parts: "parts",
  totalBytes: "bytes of the whole body",
};

/**
 * The 413 for a form over one of its limits: JSON `{ "error", "limit": { "name", "value" }, "part" }`
 * (`part` left out for the whole body's size).
 */
export function overLimit(limit: keyof FormLimits, value: number, part?: PartRef): HttpError {
  const where = part === undefined ? "the request body" : describePart(part);
  const message =
    limit === "totalBytes"
      ? `the request body is larger than the limit of ${value} bytes`
      : limit === "files" || limit === "fields" || limit === "parts"
        ? `${where} is one too many: the limit is ${value} ${WHAT[limit]}`
        : `${where} is over the limit of ${value} ${WHAT[limit]}`;
  return new HttpError(413, message, {
    details: { limit: { name: limit, value }, ...(part === undefined ? {} : { part: { ...part } }) },
  });
}

/** The 400 for a body that is not a well-formed form: JSON `{ "error", "reason", "part" }`. */
export function malformed(reason: string, message: string, part?: PartRef, cause?: unknown): HttpError {
  return new HttpError(400, part === undefined ? message : `${describePart(part)}: ${message}`, {
    details: { reason, ...(part === undefined ? {} : { part: { ...part } }) },
    ...(cause === undefined ? {} : { cause }),
  });
}
