import { utf8Encoder } from "./utf8.js";

/**
 * Request-target → path segments, exactly like wai's `pathInfo` (http-types' `extractPath` and
 * `decodePathSegments`): the path (before the first `?`) is split on `/` *before* percent-decoding, so
 * `%2F` never splits; malformed escapes stay literal and invalid UTF-8 becomes U+FFFD the way Haskell's
 * `text` does it (`decodeUtf8With lenientDecode`), so decoding never throws. No dot-segment removal,
 * `+` stays `+`.
 */

const utf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * The raw path of a request target: before the first `?`. As in http-types' `extractPath` (what warp
 * uses), only the lower-case prefixes `http://` and `https://` mark an absolute-form target, whose
 * authority is dropped; any other `scheme://` stays part of the path. An empty path is `/`.
 */
export function rawPathOf(target: string): string {
  let end = target.indexOf("?");
  if (end === -1) end = target.length;
  const authority = target.charCodeAt(0) === 104 /* h */ ? authorityStart(target) : 0;
  if (authority === 0) return end === 0 ? "/" : target.slice(0, end);
  const slash = target.indexOf("/", authority);
  return slash === -1 || slash >= end ? "/" : target.slice(slash, end);
}

/** Where the authority of an absolute-form target starts (after `http://` or `https://`), else 0. */
function authorityStart(target: string): number {
  if (target.startsWith("http://")) return 7;
  if (target.startsWith("https://")) return 8;
  return 0;
}

/** Decoded segments of a raw path: `/` or empty → `[]`, `/a/` → `["a", ""]`. */
export function splitPath(rawPath: string): string[] {
  const start = rawPath.charCodeAt(0) === 47 ? 1 : 0;
  if (start >= rawPath.length) return [];
  const pieces = (start === 0 ? rawPath : rawPath.slice(1)).split("/");
  for (let i = 0; i < pieces.length; i++) pieces[i] = decodeSegment(pieces[i]!);
  return pieces;
}

/** Lenient percent-decoding of one segment; never throws. A segment without `%` is returned as is. */
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
  return decodeUtf8Lenient(bytes.subarray(0, out));
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

/**
 * UTF-8 → string as Haskell's `decodeUtf8With lenientDecode` (text ≥ 2.0): a well-formed sequence
 * (Unicode table 3-7) decodes to its character; any other byte becomes one U+FFFD and decoding resumes
 * at the next byte. So every byte of a broken or truncated sequence gets its own U+FFFD (`E2 82` → two),
 * where `TextDecoder` gives one per maximal broken subpart.
 */
export function decodeUtf8Lenient(bytes: Uint8Array): string {
  // The common case, valid UTF-8, decoded natively. No U+FFFD in the result means nothing was
  // replaced; with one, the input was broken (or spelt U+FFFD itself): decode it byte by byte.
  // (A fatal decoder would say the same by throwing, at ten times the cost on hostile input.)
  const text = utf8.decode(bytes);
  return text.indexOf("\uFFFD") === -1 ? text : decodeBroken(bytes);
}

function decodeBroken(bytes: Uint8Array): string {
  let text = "";
  let i = 0;
  while (i < bytes.length) {
    const length = wellFormedLength(bytes, i);
    if (length === 0) {
      text += "\uFFFD";
      i++;
      continue;
    }
    let codePoint = length === 1 ? bytes[i]! : bytes[i]! & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) codePoint = (codePoint << 6) | (bytes[i + k]! & 0x3f);
    text += String.fromCodePoint(codePoint);
    i += length;
  }
  return text;
}

/** Length of the well-formed UTF-8 sequence starting at `i` (Unicode table 3-7), or 0 if there is none. */
function wellFormedLength(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead < 0x80) return 1;
  let length: number;
  let secondMin = 0x80;
  let secondMax = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0)
      secondMin = 0xa0; // shorter forms are overlong
    else if (lead === 0xed) secondMax = 0x9f; // ED A0..BF would be a surrogate
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0)
      secondMin = 0x90; // overlong
    else if (lead === 0xf4) secondMax = 0x8f; // above U+10FFFF
  } else return 0; // a continuation byte, C0/C1 (always overlong) or F5..FF
  if (i + length > bytes.length) return 0;
  const second = bytes[i + 1]!;
  if (second < secondMin || second > secondMax) return 0;
  for (let k = 2; k < length; k++) {
    const b = bytes[i + k]!;
    if (b < 0x80 || b > 0xbf) return 0;
  }
  return length;
}
