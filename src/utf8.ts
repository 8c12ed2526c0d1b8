/* UTF-8 for every module: one shared encoder, and byte lengths counted without encoding. */

/** The one UTF-8 encoder every module shares (a `TextEncoder` holds no state). */
export const utf8Encoder = new TextEncoder();

/** The number of bytes `text` takes as UTF-8 (a lone surrogate counts as U+FFFD's 3), without encoding it. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
