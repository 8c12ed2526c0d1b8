/*
 * A form part's Content-Disposition (RFC 7578 §4.2, RFC 6266): `form-data; name="field";
 * filename="me.png"`, read the way browsers write it. Non-ASCII names come as UTF-8 in the quoted
 * string; the HTML standard escapes `"`, CR and LF in names as %22, %0D and %0A, which are decoded
 * here (and only those: any other `%` is part of the name). A `filename*` (RFC 8187,
 * `UTF-8''%E2%82%AC.txt`) wins over `filename`. Read in one pass, linear in the header's length.
 */

/** What a part's Content-Disposition says. */
export interface Disposition {
  /** The form field name. */
  readonly name: string;
  /** The file name as the client sent it (decoded, not yet made safe), for a file part. */
  readonly filename?: string;
}

const TOKEN_CHAR = /[!#$%&'*+.^_`|~0-9A-Za-z-]/;

/**
 * The Content-Disposition of a form part, or a sentence saying what is wrong with it: not `form-data`,
 * no `name`, a parameter given twice, a malformed parameter or `filename*`.
 */
export function parseDisposition(header: string): Disposition | string {
  let at = 0;
  const skipSpace = (): void => {
    while (header[at] === " " || header[at] === "\t") at++;
  };
  const token = (): string => {
    const start = at;
    while (at < header.length && TOKEN_CHAR.test(header[at]!)) at++;
    return header.slice(start, at);
  };
  skipSpace();
  const type = token().toLowerCase();
  if (type !== "form-data") return `its Content-Disposition is not form-data: ${JSON.stringify(header)}`;
  const parameters = new Map<string, string>();
  for (;;) {
    skipSpace();
    if (at >= header.length) break;
    if (header[at] !== ";") return `its Content-Disposition is malformed at character ${at + 1}`;
    at++;
    skipSpace();
    if (at >= header.length) break; // a trailing ";"
    const name = token().toLowerCase();
    skipSpace();
    if (name === "" || header[at] !== "=")
      return `its Content-Disposition has a malformed parameter at character ${at + 1}`;
    at++;
    skipSpace();
    let value: string;
    if (header[at] === '"') {
      const quoted = quotedString(header, at);
      if (quoted === null) return "its Content-Disposition has an unterminated quoted string";
      value = quoted.value;
      at = quoted.end;
    } else {
      value = token();
      if (value === "" && name !== "filename") return `its Content-Disposition parameter ${name} has no value`;
    }
    if (parameters.has(name)) return `its Content-Disposition gives ${name} twice`;
    parameters.set(name, value);
  }
  const name = parameters.get("name");
  if (name === undefined) return "its Content-Disposition has no name";
  const extended = parameters.get("filename*");
  if (extended !== undefined) {
    const decoded = extendedValue(extended);
    if (decoded === null) return `its filename* is malformed: ${JSON.stringify(extended)}`;
    return { name: htmlUnescape(name), filename: decoded };
  }
  const filename = parameters.get("filename");
  return filename === undefined
    ? { name: htmlUnescape(name) }
    : { name: htmlUnescape(name), filename: htmlUnescape(filename) };
}

/**
 * A quoted string from the `"` at `start` to the next `"`, as the HTML standard (and Node's own form
 * parser) reads it: browsers, Node's FormData and curl escape `"` as %22 and never write a backslash
 * escape, so a backslash is a character (`C:\path`, a name ending in `\`).
 */
function quotedString(header: string, start: number): { value: string; end: number } | null {
  const end = header.indexOf('"', start + 1);
  return end === -1 ? null : { value: header.slice(start + 1, end), end: end + 1 };
}

/** The escapes the HTML standard writes in form names: %22 `"`, %0D CR, %0A LF. */
function htmlUnescape(value: string): string {
  return value.includes("%")
    ? value.replace(/%(22|0d|0a)/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : value;
}

/** An RFC 8187 `charset'language'value` (UTF-8 or ISO-8859-1), or `null` when malformed. */
function extendedValue(value: string): string | null {
  const first = value.indexOf("'");
  const second = first === -1 ? -1 : value.indexOf("'", first + 1);
  if (second === -1) return null;
  const charset = value.slice(0, first).toLowerCase();
  const encoded = value.slice(second + 1);
  if (!/^(?:[!#$&+.^_`|~0-9A-Za-z-]|%[0-9A-Fa-f]{2})*$/.test(encoded)) return null;
  if (charset === "utf-8") {
    try {
      return decodeURIComponent(encoded);
    } catch {
      return null;
    }
  }
  if (charset === "iso-8859-1")
    return encoded.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return null;
}
