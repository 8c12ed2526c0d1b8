import { NoParse } from "./parser.js";

/*
 * Integral types. Syntax (http-api-data): optional sign (not for Word), one or more ASCII digits,
 * leading zeros allowed; no spaces, `_`, decimal point, exponent or hex. Out of range is a mismatch,
 * never a wrap-around.
 */

const ZERO = 48;
const NINE = 57;
const PLUS = 43;
const MINUS = 45;

/** Index where the digits start (after an optional sign), or -1 if `piece` is not `[+-]?[0-9]+`. */
function digitsStart(piece: string, signed: boolean): number {
  const first = piece.charCodeAt(0);
  const start = signed && (first === PLUS || first === MINUS) ? 1 : 0;
  if (start >= piece.length) return -1;
  for (let i = start; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    if (c < ZERO || c > NINE) return -1;
  }
  return start;
}

/**
 * `[+-]?[0-9]+` (no sign unless `signed`) in `text[start, end)` as a safe integer, validated and
 * converted in one pass; NoParse for anything else or past ±(2^53 − 1). Read in place, so that a
 * router walking a path parses a typed segment without a slice (see in-place.ts).
 */
export function safeIntegerIn(text: string, start: number, end: number, signed: boolean): number | NoParse {
  if (start >= end) return NoParse;
  const first = text.charCodeAt(start);
  const from = signed && (first === PLUS || first === MINUS) ? start + 1 : start;
  if (from >= end) return NoParse;
  let value = 0;
  for (let i = from; i < end; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    // one unsigned compare for both ends of 0–9; past the safe range it is NoParse whatever follows
    if (digit >>> 0 > 9 || (value = value * 10 + digit) > Number.MAX_SAFE_INTEGER) return NoParse;
  }
  return first === MINUS && value !== 0 ? -value : value;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** `Int`: a `number` in the safe-integer range, with optional sign. */
export class Int {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Int";
  static parseUrlPiece(piece: string): number | NoParse {
    return safeIntegerIn(piece, 0, piece.length, true);
  }
  static toUrlPiece(value: number): string {
    return String(value);
  }
}

/** `Word`: a non-negative `number` (digits only, no sign) in the safe-integer range. */
export class Word {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Word";
  static parseUrlPiece(piece: string): number | NoParse {
    return safeIntegerIn(piece, 0, piece.length, false);
  }
  static toUrlPiece(value: number): string {
    return String(value);
  }
}

/**
 * `Integer`: a `bigint`, with optional sign, of at most {@link Integer.maxDigits} significant digits
 * (leading zeros do not count). Haskell's `Integer` has no bound, but converting decimal text to and
 * from a `bigint` costs more than linear time (a million digits: ~0.15 s to parse, ~0.3 s to print), so a
 * longer segment is a mismatch rather than a slow request.
 */
export class Integer {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Integer";
  /** The most significant digits a segment may have; longer ones do not parse. */
  static readonly maxDigits = 4096;
  static parseUrlPiece(piece: string): bigint | NoParse {
    const start = digitsStart(piece, true);
    return start === -1 || significantDigits(piece, start) > Integer.maxDigits ? NoParse : BigInt(piece);
  }
  static toUrlPiece(value: bigint): string {
    return value.toString();
  }
}

/** `Int64`: a `bigint` in −2^63 … 2^63 − 1, exactly. */
export class Int64 {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Int64";
  static parseUrlPiece(piece: string): bigint | NoParse {
    const start = digitsStart(piece, true);
    // 19 digits is the most an in-range value has once leading zeros go; more cannot fit
    if (start === -1 || significantDigits(piece, start) > 19) return NoParse;
    const value = BigInt(piece);
    return value < INT64_MIN || value > INT64_MAX ? NoParse : value;
  }
  static toUrlPiece(value: bigint): string {
    return value.toString();
  }
}

/** Number of digits from the first significant one (a lone `0` counts as one). */
function significantDigits(piece: string, start: number): number {
  let i = start;
  while (i < piece.length - 1 && piece.charCodeAt(i) === ZERO) i++;
  return piece.length - i;
}
