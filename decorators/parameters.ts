import type { CookieSigner } from "../src/cookies/sign.js";
import type { ParamOptions } from "../src/params.js";
import type { PathParser } from "../src/parsers/parser.js";
import { isStandardSchema, type StandardSchema } from "../src/schema/standard.js";
import type { FormObjectOptions } from "../src/forms/object.js";
import type { BodyOptions } from "../src/validate/body.js";
import type { QueryObjectOptions } from "../src/validate/query.js";
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
 * Parameter decorator, in two forms.
 *
 * `@Query(name, type?, options?)`: the query parameter `name`, parsed with `type` — a path type such as
 * `Int`, `Bool`, `UUID` or a `Newtype` class — or, without `type`, with the parser the declared
 * parameter type names (`string` → `Text`, `boolean` → `Bool`, a `@PathType` class → itself; `number`
 * is ambiguous, so say `Int` or `Double`). `type` may be a Standard Schema instead (zod, valibot,
 * arktype): it gets the value as sent, a string (convert with `z.coerce.number()`), or with `array`
 * the array of a repeated key's values. A missing (unless `optional`, or the schema's default) or
 * invalid value answers **400** naming the parameter. Functional form: `queryParam(req, name, type,
 * options)` / `queryParams(req, name, type)`.
 *
 * `@Query(type?, options?)`: the whole query as one object, validated by `type` — a Standard Schema or a
 * class-validator DTO class — or by the declared parameter class (`@Query() q: ListQuery`, or with
 * options `@Query({ arrays: ["tag"] }) q: ListQuery`). A key sent once is a string, a repeated key an
 * array, a key in `options.arrays` always an array. A failing key answers **400** listing each.
 * Functional form: `queryObject(req, type, options)`.
 */
export function Query(type?: StandardSchema | Function, options?: QueryObjectOptions): ParamDecorator;
export function Query(options: QueryObjectOptions): ParamDecorator;
export function Query(
  name: string,
  type?: PathParser<unknown> | StandardSchema,
  options?: QueryOptions,
): ParamDecorator;
export function Query(
  nameOrType?: string | StandardSchema | Function | QueryObjectOptions,
  type?: PathParser<unknown> | StandardSchema | QueryObjectOptions,
  options?: QueryOptions,
): ParamDecorator {
  if (typeof nameOrType !== "string") {
    // @Query({ arrays }) q: ListQuery: options for the declared class
    const optionsFirst =
      typeof nameOrType === "object" && nameOrType !== null && !isStandardSchema(nameOrType) && type === undefined;
    if (optionsFirst || typeof nameOrType === "function") checkNotParser(nameOrType);
    if (optionsFirst) checkObjectOptions(nameOrType);
    const whole = optionsFirst ? undefined : checkValidator("@Query", nameOrType);
    const objectOptions = (optionsFirst ? nameOrType : type) as QueryObjectOptions | undefined;
    checkArrays("@Query", objectOptions?.arrays);
    return (target, method, index) =>
      record(target, method, index, "@Query", { kind: "queryObject", options: { ...objectOptions, type: whole } });
  }
  const name = nameOrType;
  checkName("@Query", name);
  const parser = type as PathParser<unknown> | StandardSchema | undefined;
  checkType("@Query", parser);
  return (target, method, index) =>
    record(target, method, index, "@Query", { kind: "query", name, options: { ...options, type: parser } });
}

/**
 * Parameter decorator: the request header `name` (any case), parsed like `@Query`'s values (with a
 * parser or a Standard Schema; a header sent twice arrives as one value, its values joined with `, `);
 * a missing (unless `optional`) or invalid value answers **400** naming the header. Functional form:
 * `headerParam(req, name, type, options)`.
 */
export function Header(
  name: string,
  type?: PathParser<unknown> | StandardSchema,
  options?: ParamOptions,
): ParamDecorator {
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
 * not percent-decoded), parsed like `@Query`'s values — with `type` (a parser or a Standard Schema), or
 * the parser the declared parameter type names. A missing (unless `optional`) or unparsable cookie answers **400** naming it.
 * With `signed`, the cookie's signature is checked first and a wrong one counts as not sent. Functional
 * form: `cookieParam(req, name, type, options)` / `signedCookieParam(req, name, signer, type, options)`.
 */
export function Cookie(
  name: string,
  type?: PathParser<unknown> | StandardSchema,
  options?: CookieParamOptions,
): ParamDecorator {
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
 * Parameter decorator: the JSON body (within the body limit), validated by `type` — a Standard Schema
 * (zod, valibot, arktype: the parameter gets its output) or a class-validator DTO class (an instance,
 * built with class-transformer: nested objects with `@ValidateNested()` + `@Type(() => C)`, arrays,
 * `whitelist`/`forbidNonWhitelisted`) — or, without `type`, by the declared parameter class. Malformed
 * JSON or a failing value answers **400** listing each failing field (`address.city`) and constraint.
 * A declared type that is no DTO class (`Function` from `import type`, `Object` from an interface or a
 * union, a class without class-validator decorators) is refused when `controllers()` runs. Functional
 * form: `body(req, type, options)`.
 */
export function Body(type?: Function | StandardSchema, options?: BodyOptions): ParamDecorator {
  const validator = checkValidator("@Body", type);
  return (target, method, index) =>
    record(target, method, index, "@Body", { kind: "body", options: { ...options, type: validator } });
}

/**
 * Parameter decorator: the text field `name` of the request's form (`multipart/form-data` or
 * `application/x-www-form-urlencoded`), parsed with `type` — a parser, or a Standard Schema that gets
 * the value as sent (a string) — or, without it, with the parser the declared parameter type names, as
 * for `@Query`. A missing (unless `optional`, or the schema's default) or invalid field answers **400**
 * naming it, in one 400 with the method's other bad parameters; a body that is no form answers
 * **415**. All form parameters of a request share one `req.form()`. Functional form:
 * `formField(await req.form(), name, type, options)`.
 */
export function FormField(
  name: string,
  type?: PathParser<unknown> | StandardSchema,
  options?: ParamOptions,
): ParamDecorator {
  checkName("@FormField", name);
  checkType("@FormField", type);
  return (target, method, index) =>
    record(target, method, index, "@FormField", { kind: "formField", name, options: { ...options, type } });
}

/**
 * Parameter decorator: the whole form (`multipart/form-data` or urlencoded) as one object, validated by
 * `type` — a Standard Schema or a class-validator DTO class — or by the declared parameter class. Text
 * fields are strings as sent, a repeated name (or one in `options.arrays`) an array, a file its
 * `FormFile` (a Web `File` too: `z.file()` checks it). Every failing field answers in one **400**; a
 * body that is no form answers **415**; with `@Body` on the same method it is a startup error
 * (`TWO_BODIES`). Named after what it reads, as `@Body` and `@Query()` are. Functional form:
 * `formObject(req, type, options)`.
 */
export function Form(type?: StandardSchema | Function, options?: FormObjectOptions): ParamDecorator {
  const validator = checkValidator("@Form", type);
  checkArrays("@Form", options?.arrays);
  return (target, method, index) =>
    record(target, method, index, "@Form", { kind: "formObject", options: { ...options, type: validator } });
}

/**
 * Parameter decorator: the file sent as the form field `name` (a `FormFile`: its name, type and bytes;
 * the first, when several were). None answers **400** naming it, unless `optional` (then `undefined`).
 * Functional form: `formFile(await req.form(), name, options)`.
 */
export function File(name: string, options?: ParamOptions): ParamDecorator {
  checkName("@File", name);
  const optional = options?.optional === true;
  return (target, method, index) => record(target, method, index, "@File", { kind: "file", name, optional });
}

/**
 * Parameter decorator: every file sent as the form field `name`, in order (`FormFile[]`, `[]` when
 * there is none). Functional form: `formFiles(await req.form(), name)`.
 */
export function Files(name: string): ParamDecorator {
  checkName("@Files", name);
  return (target, method, index) => record(target, method, index, "@Files", { kind: "files", name });
}

/** A Standard Schema or a class, as given; anything else is a `TypeError`. */
function checkValidator(decorator: string, type: unknown): Function | StandardSchema | undefined {
  if (type === undefined || isStandardSchema(type) || typeof type === "function") return type;
  throw new TypeError(
    `${decorator}: the type must be a class, got ${type === null ? "null" : typeof type}: give a class-validator DTO class or a Standard Schema (zod, valibot, arktype, …)`,
  );
}

const OBJECT_OPTIONS = new Set(["arrays", "whitelist", "forbidNonWhitelisted"]);

/** `@Query(Int)`: a parser given without the name of the parameter it reads. */
function checkNotParser(type: object): void {
  if (typeof (type as { parseUrlPiece?: unknown }).parseUrlPiece !== "function") return;
  const name = (type as { name?: unknown }).name;
  throw new TypeError(
    `@Query: a parser reads one query parameter, named first: @Query("page", ${typeof name === "string" ? name : "Int"})`,
  );
}

/** `@Query(options)`: an object of `queryObject()`'s options. */
function checkObjectOptions(options: object): void {
  const unknown = Object.keys(options).filter((key) => !OBJECT_OPTIONS.has(key));
  if (unknown.length > 0) {
    throw new TypeError(
      `@Query: expected a Standard Schema, a DTO class or options (${[...OBJECT_OPTIONS].join(", ")}), got an object with ${unknown.join(", ")}`,
    );
  }
}

function checkArrays(decorator: string, arrays: unknown): void {
  if (arrays !== undefined && (!Array.isArray(arrays) || arrays.some((key) => typeof key !== "string")))
    throw new TypeError(
      `${decorator}: arrays must be a list of ${decorator === "@Form" ? "field names" : "query keys"}`,
    );
}

function checkName(decorator: string, name: unknown): void {
  if (typeof name !== "string" || name === "") throw new TypeError(`${decorator}: the name must be a non-empty string`);
}

function checkType(decorator: string, type: unknown): void {
  if (
    type !== undefined &&
    !isStandardSchema(type) &&
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
    case "queryObject":
      return "@Query()";
    case "header":
      return `@Header(${JSON.stringify(p.name)})`;
    case "cookie":
      return `@Cookie(${JSON.stringify(p.name)})`;
    case "body":
      return "@Body()";
    case "formField":
      return `@FormField(${JSON.stringify(p.name)})`;
    case "formObject":
      return "@Form()";
    case "file":
      return `@File(${JSON.stringify(p.name)})`;
    case "files":
      return `@Files(${JSON.stringify(p.name)})`;
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
