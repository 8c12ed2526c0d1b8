/*
 * The request's `Cookie` header → its cookies by name, read the lenient way RFC 6265 §5.4 describes what
 * a user agent sends (and browsers send more than the grammar allows). One pass, no regular expression,
 * so the time is linear in the header's length whatever it holds.
 */

/**
 * The cookies of a `Cookie` header, by name, as a `Map` (so a cookie called `__proto__`, `constructor`
 * or `prototype` is only a name, and nothing is inherited). The rules:
 *
 * - the header is split on `;`; each pair is trimmed (spaces and tabs) and split at its **first** `=`,
 *   so a value may hold `=` (`token=a=b` is `a=b`); name and value are trimmed again;
 * - a pair without `=`, or with an empty name (`=x`), is ignored;
 * - **the first of duplicate names wins**: a user agent lists the cookie with the longest matching path
 *   first (RFC 6265 §5.4, step 2), so the first is the most specific one;
 * - a value in double quotes (`"abc"`) is read without them (`abc`); a lone quote stays;
 * - **no percent-decoding**: a value is read exactly as sent (`a%20b` stays `a%20b`). RFC 6265 defines no
 *   encoding, and decoding would make a value that happens to hold `%` read as something else; encode
 *   and decode yourself (`encodeURIComponent`/`decodeURIComponent`) when a value needs more than the
 *   characters a cookie may carry.
 *
 * `null` or `""` gives an empty map.
 */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (header === null || header === undefined) return cookies;
  const length = header.length;
  let start = 0;
  while (start < length) {
    // one scan to the pair's end: its first `=` and the `;` after it (an indexOf("=") from here could
    // read past the `;` to the header's end, for every pair: quadratic in pairs without `=`)
    let equals = -1;
    let end = start;
    for (; end < length; end++) {
      const code = header.charCodeAt(end);
      if (code === SEMICOLON) break;
      if (code === EQUALS && equals === -1) equals = end;
    }
    if (equals !== -1) {
      const name = trimmed(header, start, equals);
      if (name !== "" && !cookies.has(name)) cookies.set(name, unquoted(trimmed(header, equals + 1, end)));
    }
    start = end + 1;
  }
  return cookies;
}

const SEMICOLON = 0x3b;
const EQUALS = 0x3d;

/** `text.slice(from, to)` without the spaces and tabs at either end. */
function trimmed(text: string, from: number, to: number): string {
  while (from < to && isBlank(text.charCodeAt(from))) from++;
  while (to > from && isBlank(text.charCodeAt(to - 1))) to--;
  return text.slice(from, to);
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** A value in double quotes without them (RFC 6265's `DQUOTE *cookie-octet DQUOTE`). */
function unquoted(value: string): string {
  return value.length >= 2 && value.charCodeAt(0) === 0x22 && value.charCodeAt(value.length - 1) === 0x22
    ? value.slice(1, -1)
    : value;
}
