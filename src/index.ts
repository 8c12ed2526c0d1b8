/**
 * switchyard: ordered first-match HTTP routing (the WebGear routing spec) over one route tree.
 * @packageDocumentation
 */
export { toApplication, type ApplicationOptions } from "./adapters/node";
export type { Dispatch, DispatcherFactory } from "./dispatch/dispatcher";
export { compile, type CompiledRouter, type Found } from "./dispatch/compile";
export { interpret, interpreter } from "./dispatch/interpret";
export { CONNECT, DELETE, GET, HEAD, HTTP, OPTIONS, PATCH, POST, PUT, TRACE, type Method, type StandardMethod } from "./methods";
export {
  Bool,
  Day,
  Double,
  Int,
  Int64,
  Integer,
  lookupPathType,
  NoParse,
  parseSegment,
  registeredPathTypeNames,
  registerPathType,
  Text,
  UUID,
  Word,
  type ParsedBy,
  type PathParser,
  type PathTypes,
} from "./parsers";
export {
  isReply,
  isRouteMismatch,
  json,
  reply,
  routeMismatch,
  text,
  type HandlerResult,
  type Reply,
  type ReplyBody,
  type ReplyHeaders,
  type ReplyInit,
  type RouteMismatch,
} from "./reply";
export {
  match,
  parsePattern,
  PatternError,
  route,
  type LiteralPart,
  type ParsedPattern,
  type PatternErrorCode,
  type PatternNext,
  type PatternVars,
  type VariablePart,
} from "./pattern";
export type { RequestInput, RoutedRequest } from "./request";
export { inject, type InjectRequest, type InjectResponse } from "./testing";
export {
  alt,
  guard,
  method,
  path,
  pathEnd,
  pathVar,
  type AltNode,
  type GuardNode,
  type GuardPredicate,
  type Handler,
  type HandlerNode,
  type MethodNode,
  type PathEndNode,
  type PathNode,
  type PathVarNode,
  type Next,
  type Route,
  type RouteNode,
  type Vars,
} from "./tree";
