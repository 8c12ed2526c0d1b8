export { match, route, type PatternNext } from "./build.js";
export { PatternError, type PatternErrorCode } from "./errors.js";
export { parsePattern, type LiteralPart, type ParsedPattern, type VariablePart } from "./grammar.js";
export type { CheckedPattern, PatternVars, RouteCaptures } from "./types.js";
