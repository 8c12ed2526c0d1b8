import { HttpError } from "./errors.js";

/*
 * The request's Content-Type (RFC 9110 §8.3.1): which reader may read the body, and a multipart body's
 * boundary. A reader that does not read the type it is given answers 415.
 */

/** A media type: `type/subtype` in lower case, and its parameters (names in lower case; the first of a repeated one). */
export interface MediaType {
  readonly essence: string;
  readonly parameters: ReadonlyMap<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** One `; name=value` parameter (the value a token or a quoted string), read from where the last one ended. */
const PARAMETER = /[\t ]*;[\t ]*(?:([!#$%&'*+.^_`|~0-9A-Za-z-]+)=([!#$%&'*+.^_`|~0-9A-Za-z-]+|"(?:[^"\\]|\\.)*"))?/y;

/**
 * A Content-Type value parsed, or `null` when it is missing or its `type/subtype` is malformed.
 * Parameters are read up to the first malformed one.
 */
export function parseMediaType(header: string | null): MediaType | null {
  if (header === null) return null;
  const essence = essenceOf(header);
  if (essence === null) return null;
  const parameters = new Map<string, string>();
  const semicolon = header.indexOf(";");
  if (semicolon !== -1) {
    PARAMETER.lastIndex = semicolon;
    for (let match = PARAMETER.exec(header); match !== null; match = PARAMETER.exec(header)) {
      const name = match[1]?.toLowerCase();
      const value = match[2];
      if (name !== undefined && value !== undefined && !parameters.has(name))
        parameters.set(name, value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, "$1") : value);
      if (PARAMETER.lastIndex >= header.length) break;
    }
  }
  return { essence, parameters };
}

/**
 * A Content-Type value's `type/subtype` in lower case, or `null` when it is missing or malformed: what
 * {@link parseMediaType} gives as `essence`, without reading the parameters (`json()` needs none).
 */
export function essenceOf(header: string | null): string | null {
  if (header === null) return null;
  const semicolon = header.indexOf(";");
  const essence = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  const slash = essence.indexOf("/");
  if (slash === -1 || !TOKEN.test(essence.slice(0, slash)) || !TOKEN.test(essence.slice(slash + 1))) return null;
  return essence;
}

/** True for the types `json()` reads: `application/json` and any `+json` type (`application/problem+json`). */
export function isJsonType(essence: string): boolean {
  return essence === "application/json" || essence.endsWith("+json");
}

/** The media type of multipart forms (files and fields). */
export const MULTIPART = "multipart/form-data";
/** The media type of urlencoded forms (fields only). */
export const URLENCODED = "application/x-www-form-urlencoded";

/**
 * The 415 of a reader that does not read the request's content type (or needs one that is missing):
 * JSON `{ "error", "contentType", "accepted" }`.
 */
export function unsupportedMediaType(reader: string, accepted: readonly string[], header: string | null): HttpError {
  const given = header === null ? "the request has no content-type" : `its content-type is ${JSON.stringify(header)}`;
  return new HttpError(415, `${reader} reads ${accepted.join(" or ")} bodies; ${given}`, {
    details: { contentType: header, accepted: [...accepted] },
  });
}

/**
 * The 415 `json()` answers for a content type it does not read (see `JsonOptions.accept`): a missing
 * content-type is read as JSON (clients and tests often leave it out), and so, unless `accept` is
 * `"json"`, is `text/plain` (what `fetch` and `sendBeacon` give a string body). A form
 * (`application/x-www-form-urlencoded`, `multipart/form-data`) or any other type is not: it is not
 * JSON, and a browser form can send it across sites without a preflight.
 */
export function checkJsonContentType(
  header: string | null,
  accept: "json" | "json-or-text" | "any" = "json-or-text",
): void {
  if (accept !== "json" && accept !== "json-or-text" && accept !== "any")
    throw new TypeError(`json(): accept must be "json", "json-or-text" or "any", got ${JSON.stringify(accept)}`);
  // what nearly every JSON request sends, decided without parsing it (parsing made a Map per request)
  if (header === null || accept === "any" || header === "application/json") return;
  const essence = essenceOf(header);
  if (essence !== null && (isJsonType(essence) || (accept === "json-or-text" && essence === "text/plain"))) return;
  throw unsupportedMediaType("json()", accept === "json" ? JSON_TYPES : [...JSON_TYPES, "text/plain"], header);
}

const JSON_TYPES = ["application/json", "application/*+json"];

/** RFC 2046 §5.1.1: 1 to 70 characters of `bchars`, not ending in a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/**
 * The boundary of a `multipart/form-data` type; a missing or malformed one is a 400 (the body cannot be
 * split without it).
 */
export function boundaryOf(type: MediaType): string {
  const boundary = type.parameters.get("boundary");
  if (boundary === undefined)
    throw new HttpError(400, "the multipart/form-data content-type has no boundary parameter", {
      details: { reason: "boundary" },
    });
  if (!BOUNDARY.test(boundary))
    throw new HttpError(
      400,
      `the multipart boundary ${JSON.stringify(boundary)} is malformed (RFC 2046: 1 to 70 letters, digits or '()+_,-./:=? )`,
      { details: { reason: "boundary" } },
    );
  return boundary;
}
