/** `Text`: any segment, the empty one included, as a `string`. */
export class Text {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Text";
  static parseUrlPiece(piece: string): string {
    return piece;
  }
  static toUrlPiece(value: string): string {
    return value;
  }
}
