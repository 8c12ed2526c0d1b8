import { NoParse } from "./parser.js";

const HYPHENS = [8, 13, 18, 23];

/** `UUID`: 36 characters, hyphens at 8/13/18/23, hex digits in either case; the value is lower-cased. */
export class UUID {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "UUID";
  static parseUrlPiece(piece: string): string | NoParse {
    if (piece.length !== 36) return NoParse;
    for (let i = 0; i < 36; i++) {
      const c = piece.charCodeAt(i);
      const ok = HYPHENS.includes(i) ? c === 45 : isHexDigit(c);
      if (!ok) return NoParse;
    }
    return piece.toLowerCase();
  }
  static toUrlPiece(value: string): string {
    return value;
  }
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
