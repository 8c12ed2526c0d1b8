/** Every way a pattern can be malformed; the `code` of a {@link PatternError}. */
export type PatternErrorCode =
  | "EMPTY_PATTERN"
  | "TOO_MANY_TOKENS"
  | "LONE_METHOD"
  | "METHOD_CASE"
  | "INVALID_METHOD"
  | "TOO_MANY_COLONS"
  | "EMPTY_LABEL"
  | "EMPTY_TYPE"
  | "UNKNOWN_TYPE"
  | "DUPLICATE_LABEL";

/**
 * A malformed route pattern, thrown when `route`/`match` (or `@Route`/`@Match`) is called, so a bad
 * pattern never reaches a running server. The message quotes the pattern, marks the offending part
 * and says what was expected.
 */
export class PatternError extends Error {
  override readonly name = "PatternError";

  constructor(
    /** Which rule the pattern breaks; stable across versions. */
    readonly code: PatternErrorCode,
    /** The pattern as written. */
    readonly pattern: string,
    /** Where the offending part starts (0-based index into `pattern`). */
    readonly position: number,
    /** Length of the offending part (at least 1). */
    readonly length: number,
    /** What is wrong, in a few words. */
    readonly problem: string,
    /** What the pattern should have there. */
    readonly expected: string,
  ) {
    super(formatMessage(pattern, position, length, problem, expected));
  }
}

function formatMessage(pattern: string, position: number, length: number, problem: string, expected: string): string {
  const marker = " ".repeat(position) + "^".repeat(Math.max(1, length));
  return [
    `invalid route pattern ${JSON.stringify(pattern)} at position ${position}: ${problem}`,
    `    ${pattern}`,
    `    ${marker}`,
    `expected ${expected}`,
  ].join("\n");
}
