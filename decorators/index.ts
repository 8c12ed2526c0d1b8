/**
 * switchyard/decorators: class-based controllers (`@Match`, `@Route`, `@PathVar`, `@Req`) collected
 * into the same route tree as the functional API, and parser classes for user types (`Newtype`,
 * `@PathType`, class-validator refinement). Loads `reflect-metadata`.
 * @packageDocumentation
 */
export { controllers, type ControllerClass, type ControllersOptions, type Resolver } from "./controllers.js";
export { ControllerError, type ControllerErrorCode } from "./errors.js";
export { Match } from "./match.js";
export { Describe, type RouteDocs } from "./openapi.js";
export { isNewtype, Newtype, PathType, type NewtypeClass, type NewtypeInstance, type NewtypeValue, type ParserClass } from "./newtype.js";
export { PathVar, Req } from "./path-var.js";
export { Route, type RouteMethod } from "./route.js";
export { isValid, validated } from "./validation.js";
