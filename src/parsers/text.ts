import type { ParserSchema } from "./parser.js";

/** `Text`: any segment, the empty one included, as a `string`. */
export class Text {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Text";
  static readonly valueType = String;
  static readonly acceptsEverySegment = true;
  static readonly openApiSchema: ParserSchema = { type: "string" };
  static parseUrlPiece(piece: string): string {
    return piece;
  }
  static toUrlPiece(value: string): string {
    return value;
  }
}
