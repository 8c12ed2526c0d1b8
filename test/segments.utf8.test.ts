import fc from "fast-check";
import { decodeSegment, decodeUtf8Lenient } from "../src/segments";

/*
 * Broken UTF-8 decodes exactly as Haskell's text does it (`decodeUtf8With lenientDecode`, which
 * http-types' `decodePathSegments` uses). Read off text 2.1's `decodeUtf8With1`/`decodeUtf8With2`: the
 * validator stops at the first byte where no well-formed sequence can go on, the error handler is
 * called for the *first* byte of the broken sequence only, and decoding restarts at the byte after it;
 * an incomplete sequence at the end gets the handler once per byte (`skipIncomplete`). The bytes in
 * between are continuation bytes, which start nothing, so each of them is replaced on its own turn.
 *
 * The oracle below states that rule from the definition of UTF-8 rather than from table 3-7 (which
 * the decoder uses): at each position, the bytes that follow form a character when they are *the*
 * UTF-8 encoding (shortest form) of a Unicode scalar value; otherwise that one byte is U+FFFD.
 */

const encoder = new TextEncoder();

/** Code point a byte sequence spells by its bit patterns alone, or undefined when the patterns do not fit. */
function bitsOf(seq: readonly number[]): number | undefined {
  const lead = seq[0]!;
  const announced =
    lead < 0x80 ? 1 : lead >> 5 === 0b110 ? 2 : lead >> 4 === 0b1110 ? 3 : lead >> 3 === 0b11110 ? 4 : 0;
  if (announced !== seq.length) return undefined;
  let codePoint = announced === 1 ? lead : lead & ((1 << (7 - announced)) - 1);
  for (const b of seq.slice(1)) {
    if (b >> 6 !== 0b10) return undefined;
    codePoint = codePoint * 64 + (b & 0x3f);
  }
  return codePoint;
}

function isScalarEncoding(seq: readonly number[]): boolean {
  const codePoint = bitsOf(seq);
  if (codePoint === undefined || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return false;
  const canonical = encoder.encode(String.fromCodePoint(codePoint));
  return canonical.length === seq.length && canonical.every((b, k) => b === seq[k]);
}

function oracle(bytes: readonly number[]): string {
  let text = "";
  for (let i = 0; i < bytes.length; ) {
    const length = [1, 2, 3, 4].find((k) => i + k <= bytes.length && isScalarEncoding(bytes.slice(i, i + k)));
    if (length === undefined) {
      text += "\uFFFD";
      i += 1;
    } else {
      text += String.fromCodePoint(bitsOf(bytes.slice(i, i + length))!);
      i += length;
    }
  }
  return text;
}

const percentEncoded = (bytes: readonly number[]) => bytes.map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
const U = "\uFFFD";

describe("broken UTF-8: the issue's examples (confirmed under GHC)", () => {
  test.each([
    ["%e2%82", U + U],
    ["%E2%82a", `${U + U}a`],
    ["%F0%9F%98", U + U + U],
    ["%E2%82%AC%E2%82", `€${U}${U}`],
  ])("%s → %j", (raw, expected) => {
    expect(decodeSegment(raw)).toBe(expected);
  });
});

describe("broken UTF-8: every kind of invalid sequence", () => {
  test.each([
    ["overlong 2-byte (C0 AF, C1 BF)", [0xc0, 0xaf, 0xc1, 0xbf], U + U + U + U],
    ["overlong 3-byte (E0 80 AF)", [0xe0, 0x80, 0xaf], U + U + U],
    ["overlong 4-byte (F0 80 80 AF)", [0xf0, 0x80, 0x80, 0xaf], U + U + U + U],
    ["surrogate (ED A0 80)", [0xed, 0xa0, 0x80], U + U + U],
    ["surrogate pair as two 3-byte forms", [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], U.repeat(6)],
    ["above U+10FFFF (F4 90 80 80)", [0xf4, 0x90, 0x80, 0x80], U.repeat(4)],
    ["F5..FF lead bytes", [0xf5, 0xf8, 0xfc, 0xfe, 0xff], U.repeat(5)],
    ["stray continuation bytes", [0x80, 0x61, 0xbf, 0xbf], `${U}a${U}${U}`],
    ["truncated 3-byte sequence in the middle", [0x61, 0xe2, 0x82, 0x62], `a${U}${U}b`],
    ["truncated 4-byte sequence before a valid one", [0xf0, 0x9f, 0x98, 0xe2, 0x82, 0xac], `${U + U + U}€`],
    ["a lead byte interrupted by another lead byte", [0xe2, 0xe2, 0x82, 0xac], `${U}€`],
    ["truncated 2-byte sequence at the end", [0x61, 0xc3], `a${U}`],
    ["the largest scalar values still decode", [0xf4, 0x8f, 0xbf, 0xbf, 0xef, 0xbf, 0xbf], "\u{10ffff}\uffff"],
    ["an encoded U+FFFD is a character like any other", [0xef, 0xbf, 0xbd, 0x61], `${U}a`],
    ["an encoded U+FFFD next to a broken sequence", [0xef, 0xbf, 0xbd, 0xe2, 0x82], U + U + U],
    ["the edges of the surrogate gap still decode", [0xed, 0x9f, 0xbf, 0xee, 0x80, 0x80], "\ud7ff\ue000"],
  ])("%s", (_name, bytes, expected) => {
    expect(decodeUtf8Lenient(Uint8Array.from(bytes))).toBe(expected);
    expect(decodeSegment(percentEncoded(bytes))).toBe(expected);
    expect(oracle(bytes)).toBe(expected);
  });
});

describe("broken UTF-8: the decoder agrees with the oracle", () => {
  test("for every sequence of one and two bytes", () => {
    for (let a = 0; a < 256; a++) {
      expect(decodeUtf8Lenient(Uint8Array.of(a))).toBe(oracle([a]));
      for (let b = 0; b < 256; b++) {
        const bytes = [a, b];
        const decoded = decodeUtf8Lenient(Uint8Array.from(bytes));
        if (decoded !== oracle(bytes)) expect([bytes, decoded]).toEqual([bytes, oracle(bytes)]);
      }
    }
  });

  test("for every three-byte sequence over the bytes where the rules change", () => {
    const edges = [
      0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
      0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff,
    ];
    for (const a of edges)
      for (const b of edges)
        for (const c of edges)
          for (const d of [0x80, 0xbf, 0x41]) {
            const bytes = [a, b, c, d];
            const decoded = decodeUtf8Lenient(Uint8Array.from(bytes));
            if (decoded !== oracle(bytes)) expect([bytes, decoded]).toEqual([bytes, oracle(bytes)]);
          }
  });

  /** Bytes biased towards lead, continuation and boundary bytes, mixed with pieces of real UTF-8. */
  const hostileBytes = fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 255 }).map((b) => [b]),
        fc
          .constantFrom(
            0x80,
            0x8f,
            0x90,
            0x9f,
            0xa0,
            0xbf,
            0xc0,
            0xc1,
            0xc2,
            0xdf,
            0xe0,
            0xed,
            0xef,
            0xf0,
            0xf4,
            0xf5,
            0xff,
          )
          .map((b) => [b]),
        fc.string({ unit: "binary", minLength: 1, maxLength: 2 }).chain((s) => {
          const encoded = [...encoder.encode(s)];
          return fc.integer({ min: 1, max: encoded.length }).map((n) => encoded.slice(0, n)); // whole or truncated
        }),
      ),
      { maxLength: 16 },
    )
    .map((pieces) => pieces.flat());

  test("for random byte strings (seeded)", () => {
    fc.assert(
      fc.property(hostileBytes, (bytes) => {
        expect(decodeUtf8Lenient(Uint8Array.from(bytes))).toBe(oracle(bytes));
        expect(decodeSegment(percentEncoded(bytes))).toBe(oracle(bytes));
      }),
      { seed: 1010, numRuns: 3000 },
    );
  });

  test("well-formed UTF-8 decodes to the text it encodes", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(decodeUtf8Lenient(encoder.encode(text))).toBe(text);
      }),
      { seed: 1011, numRuns: 500 },
    );
  });
});
