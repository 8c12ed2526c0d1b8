/** `Text`: any segment, the empty one included, as a `string`. */
export class Text {
  static readonly valueType = String;
  static parseUrlPiece(piece: string): string {
    return piece;
  }
  static toUrlPiece(value: string): string {
    return value;
  }
}
