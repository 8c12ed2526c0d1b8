export { match, route, type PatternNext } from "./build";
export { PatternError, type PatternErrorCode } from "./errors";
export { parsePattern, type LiteralPart, type ParsedPattern, type VariablePart } from "./grammar";
export type { PatternVars } from "./types";
