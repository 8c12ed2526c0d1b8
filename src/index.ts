/**
 * switchyard: ordered first-match HTTP routing (the WebGear routing spec) over one route tree.
 * @packageDocumentation
 */
export { nodeRequest, toApplication, type ApplicationOptions } from "./adapters/node.js";
export { DEFAULT_BODY_LIMIT, type BodyInput, type BodySource } from "./body.js";
export {
  cookie,
  cookieSigner,
  deleteCookie,
  isSetCookie,
  parseCookies,
  SetCookie,
  signedCookie,
  signedCookieParam,
  type CookieOptions,
  type CookiePriority,
  type CookieSecret,
  type CookieSigner,
  type SameSite,
  type SignedCookieReader,
} from "./cookies/index.js";
export {
  forbidden,
  HttpError,
  isHttpError,
  refuse,
  statusText,
  unauthorized,
  type HttpErrorOptions,
} from "./errors.js";
export {
  DEFAULT_FORM_LIMITS,
  formField,
  formFields,
  formFile,
  formFiles,
  formObject,
  formOf,
  formReader,
  formRecord,
  MAX_HEADER_BYTES,
  type Form,
  type FormField,
  type FormFieldReader,
  type FormFile,
  type FormLimits,
  type FormObjectOptions,
  type FormOptions,
  type FormPart,
  type FormReader,
  type FormValue,
  type PartRef,
} from "./forms/index.js";
export { headersOf, type HeaderRecord, type RequestHeaders } from "./headers.js";
export {
  defaultDispatcher,
  errorReply,
  pipeline,
  type AdapterPipeline,
  type ErrorRequest,
  type Fallback,
  type FrameworkOptions,
  type Pipeline,
  type PipelineOptions,
} from "./pipeline.js";
export type { ContractResult, ContractValue, HandlerResultFor, JsonInput, JsonOf } from "./contract-types.js";
export { ContractError, type ContractMode } from "./contracts.js";
export { redirect, type RedirectOptions, type RedirectStatus } from "./redirect.js";
export type { StreamBody } from "./reply-stream.js";
export type { Dispatch, DispatcherFactory } from "./dispatch/dispatcher.js";
export { compile, type CompiledRouter, type Found } from "./dispatch/compile/index.js";
export { explainCompiled, type ExplainedPart } from "./dispatch/compile/explain.js";
export { interpreter } from "./dispatch/interpret.js";
export { interpret } from "./dispatch/interpret-request.js";
export {
  CONNECT,
  DELETE,
  GET,
  HEAD,
  HTTP,
  OPTIONS,
  PATCH,
  POST,
  PUT,
  TRACE,
  type Method,
  type StandardMethod,
} from "./methods.js";
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
  type ParserSchema,
  type PathParser,
  type PathTypes,
} from "./parsers/index.js";
export {
  isReply,
  isRouteMismatch,
  json,
  reply,
  routeMismatch,
  text,
  withCookies,
  type HandlerResult,
  type Reply,
  type ReplyBody,
  type ReplyHeaders,
  type ReplyInit,
  type RouteMismatch,
} from "./reply.js";
export {
  match,
  parsePattern,
  PatternError,
  route,
  type LiteralPart,
  type ParsedPattern,
  type PatternErrorCode,
  type PatternNext,
  type CheckedPattern,
  type PatternVars,
  type RouteCaptures,
  type VariablePart,
} from "./pattern/index.js";
export type { AdapterInput, JsonAccept, JsonOptions, RequestInput, RoutedRequest } from "./request.js";
export { allowedMethods, type AllowedMethods } from "./tools/allow.js";
export { methodFallbacks, type MethodFallbacks } from "./tools/method-fallbacks.js";
export { printRoutes, routes, type ListedRoute, type ListedVariable } from "./tools/listing.js";
export { openapi, type OpenApiDocument, type OpenApiObject, type OpenApiOptions } from "./tools/openapi.js";
export { DOCS_ASSETS, docs, type DocsAsset, type DocsOptions } from "./docs/index.js";
export {
  checkUnreachable,
  printShadowed,
  shadowed,
  type ShadowedRoute,
  type ShadowVerdict,
  type UnreachablePolicy,
} from "./tools/shadow.js";
export {
  requestFor,
  urlFor,
  UrlError,
  type RouteRequest,
  type UrlOptions,
  type UrlTarget,
  type UrlVars,
} from "./tools/url.js";
export {
  client,
  ClientError,
  isClientError,
  testFetch,
  type Call,
  type CallInit,
  type CallResult,
  type Client,
  type ClientFetch,
  type ClientOptions,
  type ClientResponse,
  type Jsonified,
  type ResultOf,
  type RouteCall,
  type RouteCallArgs,
  type RouteCallInit,
  type RouteCallInitWithVars,
  type RouteCallResult,
  type RouteClient,
  type RoutesByTemplate,
  type TemplateCalls,
} from "./client/index.js";
export type { Mounted, NotAHandler, ServedRecord, ServedRoute, ServedRoutes, Serves } from "./served.js";
export {
  lastEventId,
  sse,
  sseChannel,
  sseComment,
  sseFrame,
  type SseChannel,
  type SseChannelStart,
  type SseComment,
  type SseEvent,
  type SseMessage,
  type SseOptions,
  type SseSource,
} from "./sse/index.js";
export { inject, testClient, type InjectRequest, type InjectResponse, type TestClient } from "./testing.js";
export {
  alt,
  described,
  guard,
  method,
  path,
  pathEnd,
  pathVar,
  use,
  type AltNode,
  type GuardNode,
  type GuardPredicate,
  type Handler,
  type HandlerInfo,
  type HandlerInput,
  type HandlerNode,
  type JsonSchemaObject,
  type JsonSchemaSource,
  type MethodNode,
  type Middleware,
  type NextRoutes,
  type PathEndNode,
  type PathNode,
  type PathVarNode,
  type ResponseInfo,
  type NeedsVars,
  type Next,
  type NextServing,
  type Route,
  type RouteNode,
  type StandardJsonSchema,
  type UseNode,
  type Vars,
} from "./tree.js";
export type { MatchedRoute } from "./matched-route.js";
export { cors, type CorsOptions, type CorsOrigin } from "./middleware/cors.js";
export {
  badRequest,
  cookieParam,
  headerParam,
  queryParam,
  queryParams,
  readParams,
  readParamsAsync,
  type FieldError,
  type NamedValueReader,
  type ParamOptions,
  type ParamReader,
  type ValueSource,
} from "./params.js";
export {
  isStandardSchema,
  schemaParser,
  type SchemaInput,
  type SchemaOutput,
  type SchemaParserOptions,
  type StandardIssue,
  type StandardJsonSchemaConverter,
  type StandardResult,
  type StandardSchema,
  type StandardSchemaProps,
} from "./schema/index.js";
export {
  body,
  queryObject,
  type BodyOptions,
  type DtoClass,
  type DtoOptions,
  type QueryObjectOptions,
} from "./validate/index.js";
