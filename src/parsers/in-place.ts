import { Int, safeIntegerIn, Word } from "./integral.js";
import type { NoParse, PathParser } from "./parser.js";

/*
 * Path segments parsed where they lie in the path, for the compiled router's walk: `Int` and `Word`
 * (the typed segments most tables have) read their digits in place, with the same verdicts and values
 * as their `parseUrlPiece` on the slice; every other parser is given the segment as a string.
 */

// the built-in functions themselves: a subclass that does not override them parses the same way
const INT = Int.parseUrlPiece;
const WORD = Word.parseUrlPiece;

/** True when `parser` reads a segment in place (see {@link parseInPlace}). */
export function readsInPlace(parser: PathParser<unknown>): boolean {
  const parse = parser.parseUrlPiece;
  return parse === INT || parse === WORD;
}

/** `parser.parseUrlPiece(text.slice(start, end))` without the slice, for a parser that {@link readsInPlace}. */
export function parseInPlace(parser: PathParser<unknown>, text: string, start: number, end: number): number | NoParse {
  return safeIntegerIn(text, start, end, parser.parseUrlPiece === INT);
}
