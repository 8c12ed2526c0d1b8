import { NoParse } from "./parser.js";

/**
 * `Double`: `[+-]?digits(.digits)?([eE][+-]?digits)?`. Overflow gives ±Infinity (as Haskell's `read`);
 * `.5`, `5.`, `1e`, `NaN`, `Infinity`, hex and spaces are rejected.
 */
export class Double {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Double";
  static parseUrlPiece(piece: string): number | NoParse {
    return isDecimalLiteral(piece) ? Number(piece) : NoParse;
  }
  static toUrlPiece(value: number): string {
    return String(value);
  }
}

function isDecimalLiteral(s: string): boolean {
  let i = skipSign(s, 0);
  const intEnd = skipDigits(s, i);
  if (intEnd === i) return false;
  i = intEnd;
  if (s.charCodeAt(i) === 46 /* . */) {
    const fracEnd = skipDigits(s, i + 1);
    if (fracEnd === i + 1) return false;
    i = fracEnd;
  }
  const e = s.charCodeAt(i);
  if (e === 101 /* e */ || e === 69 /* E */) {
    const expStart = skipSign(s, i + 1);
    const expEnd = skipDigits(s, expStart);
    if (expEnd === expStart) return false;
    i = expEnd;
  }
  return i === s.length;
}

function skipSign(s: string, i: number): number {
  const c = s.charCodeAt(i);
  return c === 43 || c === 45 ? i + 1 : i;
}

function skipDigits(s: string, i: number): number {
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) break;
    i++;
  }
  return i;
}
