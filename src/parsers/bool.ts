import { NoParse } from "./parser.js";

/** `Bool`: `true` or `false`, in any letter case. */
export class Bool {
  /** The name patterns use; explicit, so that it survives a minifier renaming the class. */
  static readonly name = "Bool";
  static parseUrlPiece(piece: string): boolean | NoParse {
    if (piece.length !== 4 && piece.length !== 5) return NoParse;
    const lower = piece.toLowerCase();
    return lower === "true" ? true : lower === "false" ? false : NoParse;
  }
  static toUrlPiece(value: boolean): string {
    return value ? "true" : "false";
  }
}
