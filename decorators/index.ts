/**
 * switchyard-router/decorators: class-based controllers (`@Match`, `@Route`, `@Guard`, `@Use`, and the
 * parameter decorators `@PathVar`, `@Query`, `@Header`, `@Cookie`, `@Body`, `@FormField`, `@Form`, `@File`, `@Files`, `@Req`) collected into the same route
 * tree as the functional API; `body()`, the functional form of `@Body` (a Standard Schema or a
 * class-validator DTO class; loading this entry lets `body()` and `queryObject()` of the main entry read
 * DTO classes too); and parser classes for user types (`Newtype`, `@PathType`, class-validator
 * refinement). Loads `reflect-metadata`.
 * @packageDocumentation
 */
export { body, type BodyOptions } from "./body.js";
export {
  controllers,
  type ControllerClass,
  type ControllersOptions,
  type RequestResolver,
  type RequestScopeOptions,
  type Resolver,
} from "./controllers.js";
export { ControllerError, type ControllerErrorCode } from "./errors.js";
export { Guard, type CanActivate, type GuardDecorator } from "./guard.js";
export {
  Controller,
  Handle,
  type BaseClass,
  type ControllerBase,
  type ControllerPrefix,
  type HandleCheck,
  type HandleDecorator,
  type HandleMethod,
  type HandleProblem,
  type HandleVars,
  type PrefixMixin,
  type PrefixOf,
} from "./checked.js";
export { clientFor, type ControllerClient, type MethodCall, type RouteMethodsOf } from "./checked-client.js";
export { Match, type MatchDecorator } from "./match.js";
export type { GuardSpec, MiddlewareSpec } from "./metadata.js";
export { Describe, type DescribeDecorator, type RouteDocs } from "./openapi.js";
export { Returns, type ReturnsDecorator, type ReturnsStatus } from "./returns.js";
export {
  isNewtype,
  Newtype,
  PathType,
  type NewtypeClass,
  type NewtypeInstance,
  type NewtypeValue,
  type ParserClass,
} from "./newtype.js";
export {
  Body,
  Cookie,
  Header,
  PathVar,
  Query,
  FormField,
  Form,
  File,
  Files,
  Req,
  type CookieParamOptions,
  type QueryOptions,
} from "./parameters.js";
export { Route, type RouteDecorator, type RouteMethod } from "./route.js";
export { Use, type Interceptor, type UseDecorator } from "./use.js";
export { provideLibraries } from "./class-validator.cjs";
export { isValid, validated } from "./validation.js";
