export { Bool } from "./bool.js";
export { Day } from "./day.js";
export { Double } from "./double.js";
export { Int, Int64, Integer, Word } from "./integral.js";
export { NoParse, parseSegment, type ParsedBy, type ParserSchema, type PathParser } from "./parser.js";
export { lookupPathType, registerPathType, registeredPathTypeNames, type PathTypes } from "./registry.js";
export { Text } from "./text.js";
export { UUID } from "./uuid.js";
