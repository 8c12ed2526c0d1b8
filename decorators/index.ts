/**
 * switchyard/decorators: class-based controllers (`@Match`, `@Route`, `@PathVar`, `@Req`) collected
 * into the same route tree as the functional API, and parser classes for user types (`Newtype`,
 * `@PathType`, class-validator refinement). Loads `reflect-metadata`.
 * @packageDocumentation
 */
export { controllers, type ControllerClass, type ControllersOptions, type Resolver } from "./controllers";
export { ControllerError, type ControllerErrorCode } from "./errors";
export { Match } from "./match";
export { isNewtype, Newtype, PathType, type NewtypeClass, type NewtypeInstance, type NewtypeValue, type ParserClass } from "./newtype";
export { PathVar, Req } from "./path-var";
export { Route, type RouteMethod } from "./route";
export { isValid, validated } from "./validation";
