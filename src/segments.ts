/**
 * Request-target → path segments, exactly like wai's `pathInfo`: the path (before the first `?`) is
 * split on `/` *before* percent-decoding, so `%2F` never splits; malformed escapes stay literal and
 * invalid UTF-8 becomes U+FFFD, so decoding never throws. No dot-segment removal, `+` stays `+`.
 */

const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/** The raw path of a request target: before the first `?`; an absolute-form target loses its origin. */
export function rawPathOf(target: string): string {
  let end = target.indexOf("?");
  if (end === -1) end = target.length;
  if (target.charCodeAt(0) !== 47 /* / */) {
    // absolute-form (`http://host/p`, sent to proxies): keep only the path
    const scheme = target.indexOf("://");
    if (scheme !== -1 && scheme < end) {
      const slash = target.indexOf("/", scheme + 3);
      return slash === -1 || slash > end ? "" : target.slice(slash, end);
    }
  }
  return target.slice(0, end);
}

/** Decoded segments of a raw path: `/` or empty → `[]`, `/a/` → `["a", ""]`. */
export function splitPath(rawPath: string): string[] {
  const start = rawPath.charCodeAt(0) === 47 ? 1 : 0;
  if (start >= rawPath.length) return [];
  const pieces = (start === 0 ? rawPath : rawPath.slice(1)).split("/");
  for (let i = 0; i < pieces.length; i++) pieces[i] = decodeSegment(pieces[i]!);
  return pieces;
}

/** Lenient percent-decoding of one segment; never throws. */
export function decodeSegment(raw: string): string {
  if (raw.indexOf("%") === -1) return raw;
  const bytes = utf8Encoder.encode(raw);
  let out = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 37 /* % */ && i + 2 < bytes.length) {
      const hi = hexValue(bytes[i + 1]!);
      const lo = hexValue(bytes[i + 2]!);
      if (hi !== -1 && lo !== -1) {
        bytes[out++] = (hi << 4) | lo;
        i += 2;
        continue;
      }
    }
    bytes[out++] = b;
  }
  return utf8.decode(bytes.subarray(0, out));
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}
