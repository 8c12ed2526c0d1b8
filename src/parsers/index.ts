export { Bool } from "./bool";
export { Day } from "./day";
export { Double } from "./double";
export { Int, Int64, Integer, Word } from "./integral";
export { NoParse, parseSegment, type ParsedBy, type PathParser } from "./parser";
export { lookupPathType, registerPathType, registeredPathTypeNames, type PathTypes } from "./registry";
export { Text } from "./text";
export { UUID } from "./uuid";
