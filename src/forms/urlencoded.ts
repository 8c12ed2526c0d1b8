import { type BodySource, decodeText, readBody } from "../body.js";
import { isHttpError } from "../errors.js";
import { overLimit } from "./errors.js";
import type { FormLimits } from "./limits.js";
import { utf8Length } from "../utf8.js";

/*
 * application/x-www-form-urlencoded bodies: text, so read whole as `json()` reads JSON (within
 * `totalBytes`, stopping at the first chunk over it), then split by the WHATWG rules (`URLSearchParams`:
 * `+` is a space, bad escapes stay as they are, UTF-8) and checked against the field limits.
 */

/** The fields of an urlencoded body, read from `source` within the limits. */
export async function readUrlencoded(
  source: BodySource,
  limits: FormLimits,
  declaredLength: string | null,
): Promise<URLSearchParams> {
  let bytes: Uint8Array;
  try {
    bytes = await readBody(source, limits.totalBytes, declaredLength);
  } catch (error) {
    if (isHttpError(error) && error.status === 413) throw overLimit("totalBytes", limits.totalBytes);
    throw error;
  }
  return checkedFields(new URLSearchParams(decodeText(bytes)), limits);
}

/**
 * Fields checked against the limits on their number (`fields`, `parts`) and each value's size
 * (`fieldBytes`, as UTF-8): the first one over a limit is its 413.
 */
export function checkedFields(fields: URLSearchParams, limits: FormLimits): URLSearchParams {
  let index = 0;
  for (const [name, value] of fields) {
    index++;
    if (index > limits.parts) throw overLimit("parts", limits.parts, { index, name });
    if (index > limits.fields) throw overLimit("fields", limits.fields, { index, name });
    if (utf8Length(value) > limits.fieldBytes) throw overLimit("fieldBytes", limits.fieldBytes, { index, name });
  }
  return fields;
}

/**
 * The fields of a body a framework's parser already read into an object (Express's
 * `express.urlencoded()`, Koa's body parser): each own property's string value, or each string of an
 * array value, in the object's order.
 */
export function fieldsOfObject(value: unknown): URLSearchParams {
  const fields = new URLSearchParams();
  if (typeof value !== "object" || value === null) return fields;
  for (const name of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[name];
    for (const one of Array.isArray(field) ? field : [field]) {
      if (typeof one === "string") fields.append(name, one);
    }
  }
  return fields;
}
