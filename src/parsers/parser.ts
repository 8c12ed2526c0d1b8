/**
 * What a parser returns when a segment is not a value of its type (http-api-data's `Left`).
 * Routing treats it as a mismatch: the next alternative is tried.
 */
export const NoParse: unique symbol = Symbol.for("switchyard.NoParse");
/** The type of {@link NoParse}. */
export type NoParse = typeof NoParse;

/**
 * A path-variable type, in the style of Haskell's `FromHttpApiData`/`ToHttpApiData`.
 *
 * Any class with these static members is a parser, so a user newtype is just a class:
 * ```ts
 * class Slug { static parseUrlPiece(p: string) { return /^[a-z-]+$/.test(p) ? new Slug(p) : NoParse; } … }
 * ```
 * `parseUrlPiece` gets one percent-decoded segment and returns the value, or {@link NoParse}
 * (throwing counts as `NoParse` too). `toUrlPiece` is the inverse, used to build URLs.
 */
export interface PathParser<T> {
  /**
   * The name patterns use for this type (`id:Int`), and messages and documents show; a class's own
   * name by default. A minifier renames classes (`class Slug` becomes `class a`): a class meant for a
   * minified bundle says its name, `static readonly name = "Slug"`, as the built-ins do (or the bundler
   * keeps names: esbuild `keepNames`).
   */
  readonly name: string;
  parseUrlPiece(piece: string): T | NoParse;
  toUrlPiece(value: T): string;
  /**
   * The runtime constructor of parsed values (`Number` for `Int`), when there is one; decorators use it
   * to cross-check a parameter's declared type.
   */
  readonly valueType?: Function;
  /**
   * Parsers that accept every segment this one accepts (`Word`: `[Int]`), followed transitively by the
   * shadow report to tell that a route is caught by an earlier one. Leave out when unsure: a missing
   * fact only hides a shadow, a wrong one invents one.
   */
  readonly includedIn?: readonly PathParser<unknown>[];
  /** True when every segment parses (`Text`): such a parser includes every other. */
  readonly acceptsEverySegment?: boolean;
  /** The JSON Schema of the values in an OpenAPI document (`Int`: an integer in the safe range). */
  readonly openApiSchema?: ParserSchema;
}

/** A JSON Schema object, as OpenAPI 3.1 takes it. */
export type ParserSchema = Readonly<Record<string, unknown>>;

/** The value type a parser produces. */
export type ParsedBy<P> = P extends PathParser<infer T> ? T : never;

/** Runs a parser on one segment; a parser that throws has simply not parsed it. */
export function parseSegment<T>(parser: PathParser<T>, piece: string): T | NoParse {
  try {
    return parser.parseUrlPiece(piece);
  } catch {
    return NoParse;
  }
}

/** True for a parser: an object or class with `parseUrlPiece`. */
export function isParser(value: unknown): value is PathParser<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as PathParser<unknown>).parseUrlPiece === "function"
  );
}
