import type { CookieSigner } from "../src/cookies/sign.js";
import type { ParamOptions } from "../src/params.js";
import type { PathParser } from "../src/parsers/parser.js";
import type { BodyOptions } from "./body.js";
import { ControllerError } from "./errors.js";
import { nameOf, recordParam, type ClassLike, type ParamSource } from "./metadata.js";
import { ownerOf, rejectStandardCall } from "./targets.js";

/*
 * Parameter decorators: each records where a method's parameter takes its value from. Every source has
 * a functional counterpart that `controllers()` calls to fill it: `req.vars[label]`, the request itself,
 * `queryParam`/`queryParams`, `headerParam`, `cookieParam`/`signedCookieParam` (switchyard-router) and
 * `body` (this module's body.ts).
 */

type ParamDecorator = (target: object, method: string | symbol | undefined, index: number) => void;

/** Options of `@Query`. */
export interface QueryOptions extends ParamOptions {
  /** Every value of a repeated key (`?tag=a&tag=b`), as an array; none is `[]`. Implied by a parameter declared as an array. */
  readonly array?: boolean;
}

/**
 * Parameter decorator: the parameter receives the path variable `label`, as its pattern type parses
 * it (`id:Int` gives a `number`, `id:UserId` a `UserId`). The label must be one the route's pattern or
 * the class's `@Match` prefix captures. When TypeScript emits decorator metadata, the parameter's
 * declared type is checked against the pattern's type when `controllers()` runs (`id: string` for
 * `id:Int` is an error); the value itself always comes from the parser. Functional form: `req.vars[label]`.
 */
export function PathVar(label: string): ParamDecorator {
  if (typeof label !== "string" || label === "") throw new TypeError("@PathVar: the label must be a non-empty string");
  return (target, method, index) => record(target, method, index, "@PathVar", { kind: "pathVar", label });
}

/**
 * Parameter decorator: the parameter receives the whole routed request (`RoutedRequest`): headers,
 * query, body readers, captured `vars`, the native request.
 */
export function Req(): ParamDecorator {
  return (target, method, index) => record(target, method, index, "@Req", { kind: "request" });
}

/**
 * Parameter decorator: the query parameter `name`, parsed with `type` — a path type such as `Int`,
 * `Bool`, `UUID` or a `Newtype` class — or, without `type`, with the parser the declared parameter type
 * names (`string` → `Text`, `boolean` → `Bool`, a `@PathType` class → itself; `number` is ambiguous, so
 * say `Int` or `Double`). A missing (unless `optional`) or unparsable value answers **400** naming the
 * parameter. Functional form: `queryParam(req, name, type, options)` / `queryParams(req, name, type)`.
 */
export function Query(name: string, type?: PathParser<unknown>, options?: QueryOptions): ParamDecorator {
  checkName("@Query", name);
  checkType("@Query", type);
  return (target, method, index) =>
    record(target, method, index, "@Query", { kind: "query", name, options: { ...options, type } });
}

/**
 * Parameter decorator: the request header `name` (any case), parsed like `@Query`'s values; a missing
 * (unless `optional`) or unparsable value answers **400** naming the header. Functional form:
 * `headerParam(req, name, type, options)`.
 */
export function Header(name: string, type?: PathParser<unknown>, options?: ParamOptions): ParamDecorator {
  checkName("@Header", name);
  checkType("@Header", type);
  return (target, method, index) =>
    record(target, method, index, "@Header", {
      kind: "header",
      name: name.toLowerCase(),
      options: { ...options, type },
    });
}

/** Options of `@Cookie`. */
export interface CookieParamOptions extends ParamOptions {
  /**
   * The cookie is signed (set with `signedCookie`): it is verified with this signer (see
   * `signedCookieParam`), and one whose signature is wrong counts as not sent.
   */
  readonly signed?: CookieSigner;
}

/**
 * Parameter decorator: the request cookie `name` (case-sensitive; the first of duplicates; read as sent,
 * not percent-decoded), parsed like `@Query`'s values — with `type`, or the parser the declared
 * parameter type names. A missing (unless `optional`) or unparsable cookie answers **400** naming it.
 * With `signed`, the cookie's signature is checked first and a wrong one counts as not sent. Functional
 * form: `cookieParam(req, name, type, options)` / `signedCookieParam(req, name, signer, type, options)`.
 */
export function Cookie(name: string, type?: PathParser<unknown>, options?: CookieParamOptions): ParamDecorator {
  checkName("@Cookie", name);
  checkType("@Cookie", type);
  const signed = options?.signed;
  if (
    signed !== undefined &&
    (typeof signed !== "object" || signed === null || typeof (signed as Partial<CookieSigner>).verify !== "function")
  )
    throw new TypeError("@Cookie: signed must be a cookie signer (cookieSigner(secrets))");
  return (target, method, index) =>
    record(target, method, index, "@Cookie", { kind: "cookie", name, options: { ...options, type } });
}

/**
 * Parameter decorator: the JSON body (within the body limit) as an instance of `type` — or of the
 * declared parameter class — built with class-transformer and validated with class-validator (nested
 * objects with `@ValidateNested()` + `@Type(() => C)`, arrays, `whitelist`/`forbidNonWhitelisted`).
 * Malformed JSON, a body that is not an object, or failed constraints answer **400** listing each
 * failing field and constraint. Functional form: `body(req, type, options)`.
 */
export function Body(type?: Function, options?: BodyOptions): ParamDecorator {
  if (type !== undefined && typeof type !== "function")
    throw new TypeError(`@Body: the type must be a class, got ${typeof type}`);
  return (target, method, index) =>
    record(target, method, index, "@Body", { kind: "body", options: { ...options, type } });
}

function checkName(decorator: string, name: unknown): void {
  if (typeof name !== "string" || name === "") throw new TypeError(`${decorator}: the name must be a non-empty string`);
}

function checkType(decorator: string, type: unknown): void {
  if (
    type !== undefined &&
    ((typeof type !== "function" && typeof type !== "object") ||
      type === null ||
      typeof (type as { parseUrlPiece?: unknown }).parseUrlPiece !== "function")
  ) {
    throw new TypeError(`${decorator}: the type must be a parser (Int, Text, a Newtype class, …)`);
  }
}

/** The parameter decorator's name in messages: `@Query("page")`. */
export function decoratorName(p: ParamSource): string {
  switch (p.kind) {
    case "pathVar":
      return `@PathVar(${JSON.stringify(p.label)})`;
    case "request":
      return "@Req()";
    case "query":
      return `@Query(${JSON.stringify(p.name)})`;
    case "header":
      return `@Header(${JSON.stringify(p.name)})`;
    case "cookie":
      return `@Cookie(${JSON.stringify(p.name)})`;
    case "body":
      return "@Body()";
  }
}

function record(
  target: object,
  method: string | symbol | undefined,
  index: number,
  decorator: string,
  source: ParamSource,
): void {
  rejectStandardCall(decorator, method);
  if (method === undefined) {
    throw new ControllerError(
      "NOT_A_ROUTE",
      nameOf(target as ClassLike),
      "constructor",
      `${decorator} is on a constructor parameter; it belongs on a parameter of a @Route method`,
    );
  }
  const owner = ownerOf(decorator, target, method, true);
  recordParam(owner, { ...source, method, index });
}
