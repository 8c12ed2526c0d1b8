import { NoParse } from "./parser.js";

/** `Bool`: `true` or `false`, in any letter case. */
export class Bool {
  static readonly valueType = Boolean;
  static parseUrlPiece(piece: string): boolean | NoParse {
    if (piece.length !== 4 && piece.length !== 5) return NoParse;
    const lower = piece.toLowerCase();
    return lower === "true" ? true : lower === "false" ? false : NoParse;
  }
  static toUrlPiece(value: boolean): string {
    return value ? "true" : "false";
  }
}
