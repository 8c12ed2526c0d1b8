import type { CookieSigner } from "../src/cookies/sign.js";
import type { PathParser } from "../src/parsers/parser.js";
import { Text } from "../src/parsers/index.js";
import { PatternError, parsePattern, type ParsedPattern, type VariablePart } from "../src/pattern/index.js";
import { isStandardSchema, type StandardSchema } from "../src/schema/standard.js";
import type { FormObjectOptions } from "../src/forms/object.js";
import type { DtoClass } from "../src/validate/dto.js";
import type { QueryObjectOptions } from "../src/validate/query.js";
import { checkSpec, type SpecKind } from "./class-specs.js";
import { checkDeclaredType, type ParamAt, parserFor, validatorFor } from "./declared-types.js";
import { ControllerError } from "./errors.js";
import {
  classChain,
  declaredParamTypes,
  guardsOf,
  inheritedMatches,
  inheritedRoutes,
  middlewaresOf,
  nameOf,
  paramsOf,
  routesOf,
  where,
  type BodyRecordOptions,
  type ClassLike,
  type GuardSpec,
  type MiddlewareSpec,
  type ParamRecord,
  type RouteRecord,
} from "./metadata.js";
import { decoratorName } from "./parameters.js";

/*
 * Metadata → a checked plan: for each route of a controller, its pattern, where each parameter's value
 * comes from, its guards and middlewares. Everything that can be wrong with a controller is found here, before
 * any request.
 */

/**
 * Where one parameter's value comes from, with every type settled. A query, header or cookie value
 * read with a Standard Schema keeps `parser: Text` (the value as sent, for the route tools) and
 * carries the `schema` its reader validates it with.
 */
export type ArgSource =
  | { readonly kind: "pathVar"; readonly label: string }
  | { readonly kind: "request" }
  | {
      readonly kind: "query";
      readonly name: string;
      readonly parser: PathParser<unknown>;
      readonly optional: boolean;
      readonly array: boolean;
      readonly schema?: StandardSchema;
    }
  | {
      readonly kind: "header";
      readonly name: string;
      readonly parser: PathParser<unknown>;
      readonly optional: boolean;
      readonly schema?: StandardSchema;
    }
  | {
      readonly kind: "cookie";
      readonly name: string;
      readonly parser: PathParser<unknown>;
      readonly optional: boolean;
      /** A signed cookie's signer; its reader is then asynchronous. */
      readonly signed: CookieSigner | undefined;
      readonly schema?: StandardSchema;
    }
  /** A JSON body as a class-validator DTO. */
  | { readonly kind: "body"; readonly type: DtoClass; readonly options: Omit<BodyRecordOptions, "type"> }
  /** A JSON body validated by a Standard Schema. */
  | { readonly kind: "bodySchema"; readonly schema: StandardSchema; readonly options: Omit<BodyRecordOptions, "type"> }
  /** The whole query as one object, validated by a Standard Schema or a class-validator DTO class. */
  | {
      readonly kind: "queryObject";
      readonly validator: StandardSchema | DtoClass;
      readonly options: QueryObjectOptions;
    }
  /** A text field of the form (`req.form()`), read with a parser or a Standard Schema. */
  | {
      readonly kind: "formField";
      readonly name: string;
      readonly parser: PathParser<unknown>;
      readonly optional: boolean;
      readonly schema?: StandardSchema;
    }
  /** The whole form as one object, validated by a Standard Schema or a class-validator DTO class. */
  | {
      readonly kind: "formObject";
      readonly validator: StandardSchema | DtoClass;
      readonly options: FormObjectOptions;
    }
  /** The first file sent as `name`. */
  | { readonly kind: "file"; readonly name: string; readonly optional: boolean }
  /** Every file sent as `name`. */
  | { readonly kind: "files"; readonly name: string };

/** A route method, checked. */
export interface PlannedRoute {
  readonly method: string | symbol;
  readonly pattern: string;
  /** Per parameter position; `undefined` for an undecorated parameter. */
  readonly args: readonly (ArgSource | undefined)[];
  /** The class's guards (base classes' first), then the method's, in the order they run. */
  readonly guards: readonly GuardSpec[];
  /** The method's own middlewares, outermost first (the class's are the controller's). */
  readonly middlewares: readonly MiddlewareSpec[];
}

/** A controller, checked: its `@Match` prefix (if any) and its routes in the order they are tried. */
export interface PlannedController {
  readonly prefix: string | undefined;
  /** The class's middlewares around all its routes, outermost first (base classes' first). */
  readonly middlewares: readonly MiddlewareSpec[];
  readonly routes: readonly PlannedRoute[];
}

const GUARD: SpecKind = {
  decorator: "@Guard",
  member: "canActivate",
  parameters: "request",
  noun: "a guard",
  code: "NOT_A_GUARD",
  fn: "a predicate (request) => boolean",
};
const MIDDLEWARE: SpecKind = {
  decorator: "@Use",
  member: "intercept",
  parameters: "request, next",
  noun: "a middleware",
  code: "NOT_A_MIDDLEWARE",
  fn: "a middleware (request, next) => result",
};

/** Checks a controller class's metadata and plans its routes; throws what is wrong, naming it. */
export function planController(cls: ClassLike): PlannedController {
  const prefixPattern = singleMatch(cls);
  const prefix = prefixPattern === undefined ? undefined : parseFor(cls, undefined, "@Match", prefixPattern);
  const chain = classChain(cls);
  for (const level of chain) checkLevel(level);
  const routes = inheritedRoutes(cls);
  if (routes.length === 0) {
    throw new ControllerError(
      "NO_ROUTES",
      nameOf(cls),
      undefined,
      "the class has no @Route method, nor inherits one (a controller needs at least one; are its methods decorated?)",
    );
  }
  const classGuards = chain
    .slice()
    .reverse()
    .flatMap((level) =>
      guardsOf(level)
        .filter((g) => g.method === undefined)
        .map((g) => g.guard),
    );
  const classMiddlewares = chain
    .slice()
    .reverse()
    .flatMap((level) =>
      middlewaresOf(level)
        .filter((m) => m.method === undefined)
        .map((m) => m.middleware),
    );
  for (const m of classMiddlewares) checkSpec(cls, undefined, m, MIDDLEWARE);
  return {
    prefix: prefixPattern,
    middlewares: classMiddlewares,
    routes: routes.map(({ owner, route }) => {
      const params = paramsOf(owner).filter((p) => p.method === route.method);
      const methodGuards = guardsOf(owner)
        .filter((g) => g.method === route.method)
        .map((g) => g.guard);
      const guards = [...classGuards, ...methodGuards];
      for (const g of guards) checkSpec(cls, route.method, g, GUARD);
      const middlewares = middlewaresOf(owner)
        .filter((m) => m.method === route.method)
        .map((m) => m.middleware);
      for (const m of middlewares) checkSpec(cls, route.method, m, MIDDLEWARE);
      const planned = planRoute(cls, owner, route, prefix, params, guards);
      return { ...planned, middlewares };
    }),
  };
}

function singleMatch(cls: ClassLike): string | undefined {
  const matches = inheritedMatches(cls);
  if (matches.length > 1) {
    throw new ControllerError(
      "DUPLICATE_MATCH",
      nameOf(cls),
      undefined,
      `the class has ${matches.length} @Match decorators (${matches.map((m) => JSON.stringify(m)).join(", ")}); give it one`,
    );
  }
  return matches[0];
}

/**
 * One class of the chain: each `@Route` names a real method once, and every parameter decorator or
 * method `@Guard` sits on a method this same class routes, at a position the method has.
 */
function checkLevel(level: ClassLike): void {
  const prototype = level.prototype as Record<string | symbol, unknown>;
  const routed = new Map<string | symbol, string>();
  for (const r of routesOf(level)) {
    if (r.method === "constructor") {
      throw new ControllerError(
        "RESERVED_METHOD",
        nameOf(level),
        String(r.method),
        "a route is recorded for the constructor, which is not a method a request can call",
      );
    }
    if ((typeof r.method !== "string" && typeof r.method !== "symbol") || typeof prototype[r.method] !== "function") {
      throw new ControllerError(
        "NOT_A_METHOD",
        nameOf(level),
        String(r.method),
        "a route is recorded for a member that is not a method of the class",
      );
    }
    const earlier = routed.get(r.method);
    if (earlier !== undefined) {
      throw new ControllerError(
        "DUPLICATE_ROUTE",
        nameOf(level),
        String(r.method),
        `the method has two @Route decorators (${JSON.stringify(earlier)} and ${JSON.stringify(r.pattern)}); ` +
          "a method handles one route (write a second method for the other)",
      );
    }
    routed.set(r.method, r.pattern);
  }
  const notRouted = (method: string | symbol | undefined, what: string): void => {
    if (method === undefined || routed.has(method)) return;
    const inherited = classChain(level)
      .slice(1)
      .some((base) => routesOf(base).some((r) => r.method === method));
    throw new ControllerError(
      "NOT_A_ROUTE",
      nameOf(level),
      String(method),
      `${what} is on a method with no @Route` +
        (inherited
          ? " (it overrides a base class's route: give the override its own @Route to change its parameters or guards)"
          : ""),
    );
  };
  const seen = new Map<string, ParamRecord>();
  for (const p of paramsOf(level)) {
    notRouted(p.method, decoratorName(p));
    const declared = declaredParamTypes(prototype, p.method)?.length;
    const count = declared ?? (prototype[p.method] as () => unknown).length;
    if (!Number.isSafeInteger(p.index) || p.index < 0 || p.index >= count) {
      throw new ControllerError(
        "PARAM_INDEX",
        nameOf(level),
        String(p.method),
        `${decoratorName(p)} is recorded for parameter ${String(p.index)}, but the method has ${count} ` +
          `parameter${count === 1 ? "" : "s"}${declared === undefined ? " (Function.length; without decorator metadata a parameter after one with a default value cannot be decorated)" : ""}`,
      );
    }
    const key = `${String(p.method)}#${p.index}`;
    const clash = seen.get(key);
    if (clash !== undefined) {
      throw new ControllerError(
        "DUPLICATE_PARAM",
        nameOf(level),
        String(p.method),
        `parameter ${p.index} has two decorators (${decoratorName(clash)} and ${decoratorName(p)}); give it one`,
      );
    }
    seen.set(key, p);
  }
  for (const g of guardsOf(level)) notRouted(g.method, "@Guard");
  for (const m of middlewaresOf(level)) notRouted(m.method, "@Use");
}

/**
 * Parses a pattern; a `PatternError` gets the class (and method) in front of its message, and an
 * unknown type a hint about why (`declared`: the method's parameter types, when known).
 */
function parseFor(
  cls: ClassLike,
  method: string | symbol | undefined,
  decorator: string,
  pattern: string,
  declared?: readonly unknown[],
): ParsedPattern {
  try {
    return parsePattern(pattern);
  } catch (error) {
    if (error instanceof PatternError) {
      error.message = `${where(cls, method)}: ${decorator}: ${error.message}`;
      if (error.code === "UNKNOWN_TYPE")
        error.message += `\n${unknownTypeHint(error.pattern.slice(error.position, error.position + error.length), declared ?? [])}`;
    }
    throw error;
  }
}

/**
 * Why a type may be unknown: a parameter declared with a parser class of that name that was never
 * registered, or a `@PathType` class whose module never ran.
 */
function unknownTypeHint(typeName: string, declared: readonly unknown[]): string {
  const parserClass = declared.some(
    (t) =>
      typeof t === "function" &&
      t.name === typeName &&
      typeof (t as Partial<PathParser<unknown>>).parseUrlPiece === "function",
  );
  if (parserClass) {
    return (
      `hint: a parameter is declared as ${typeName}, a parser class that is not registered: decorate it with @PathType() ` +
      `(or call registerPathType(${typeName}) before controllers())`
    );
  }
  return (
    `hint: if ${typeName} is a class decorated with @PathType(), its module has not run yet: TypeScript ` +
    `drops an import used only as a type, so the decorator never ran. Load the module for its effect ` +
    `(import "./path/to/its/module";) or use ${typeName} as a value, or call registerPathType(${typeName}) before controllers()`
  );
}

function variables(parsed: ParsedPattern | undefined): VariablePart[] {
  return parsed === undefined ? [] : parsed.parts.filter((p): p is VariablePart => p.kind === "variable");
}

function planRoute(
  cls: ClassLike,
  owner: ClassLike,
  route: RouteRecord,
  prefix: ParsedPattern | undefined,
  params: readonly ParamRecord[],
  guards: readonly GuardSpec[],
): Omit<PlannedRoute, "middlewares"> {
  const { method, pattern } = route;
  const name = String(method);
  const types = declaredParamTypes(owner.prototype as object, method);
  const parsed = parseFor(cls, method, "@Route", pattern, types);
  const own = variables(parsed);
  const inherited = variables(prefix);
  const clash = own.find((v) => inherited.some((p) => p.label === v.label));
  if (clash !== undefined) {
    const error = new PatternError(
      "DUPLICATE_LABEL",
      pattern,
      clash.position,
      clash.label.length,
      `the label "${clash.label}" is captured by the class's @Match(${JSON.stringify(prefix!.pattern)}) too`,
      "each label at most once per route, counting the @Match prefix",
    );
    error.message = `${where(cls, method)}: @Route: ${error.message}`;
    throw error;
  }
  const captured = new Map<string, VariablePart>([...inherited, ...own].map((v) => [v.label, v]));
  const args: (ArgSource | undefined)[] = [];
  for (const p of params) {
    const declared = types?.[p.index];
    if (p.kind === "pathVar") {
      const variable = captured.get(p.label);
      if (variable === undefined) {
        const available = [...captured.keys()];
        throw new ControllerError(
          "UNKNOWN_LABEL",
          nameOf(cls),
          name,
          `@PathVar(${JSON.stringify(p.label)}) names no label of the pattern ${JSON.stringify(pattern)}` +
            (prefix === undefined ? "" : ` under @Match(${JSON.stringify(prefix.pattern)})`) +
            ` (${available.length === 0 ? "it captures none" : `its labels: ${available.join(", ")}`})`,
        );
      }
      checkDeclaredType(
        cls,
        name,
        p.index,
        decoratorName(p),
        `"${p.label}:${variable.typeName}"`,
        variable.parser as PathParser<unknown>,
        declared,
      );
    }
    args[p.index] = settle({ cls, method: name, param: p, declared, metadata: types !== undefined });
  }
  const received = new Set(params.flatMap((p) => (p.kind === "pathVar" ? [p.label] : [])));
  // a method that takes the request alone reads its variables from it (the compiler checked them)
  const missing = route.takes === "request" ? undefined : own.find((v) => !received.has(v.label));
  if (missing !== undefined) {
    throw new ControllerError(
      "MISSING_PATH_VAR",
      nameOf(cls),
      name,
      `the pattern ${JSON.stringify(pattern)} captures "${missing.label}" but no parameter has ` +
        `@PathVar(${JSON.stringify(missing.label)})`,
    );
  }
  const json = params.find((p) => p.kind === "body");
  const form = params.find(
    (p) => p.kind === "formField" || p.kind === "formObject" || p.kind === "file" || p.kind === "files",
  );
  if (json !== undefined && form !== undefined) {
    throw new ControllerError(
      "TWO_BODIES",
      nameOf(cls),
      name,
      `${decoratorName(json)} reads the body as JSON and ${decoratorName(form)} reads it as a form; a request has one body: keep one of them`,
    );
  }
  // a method that takes the request alone is called with it (the checked style, `@Handle`)
  return { method, pattern, args: route.takes === "request" ? [{ kind: "request" }] : Array.from(args), guards };
}

/** A recorded parameter with its parser, schema or DTO class settled, from the decorator or the declared type. */
function settle(at: ParamAt): ArgSource {
  const { cls, method, param: p, declared } = at;
  switch (p.kind) {
    case "pathVar":
    case "request":
      return p;
    case "query": {
      const array = p.options.array ?? declared === Array;
      const optional = p.options.optional ?? false;
      const { type } = p.options;
      if (isStandardSchema(type)) return { kind: "query", name: p.name, parser: Text, optional, array, schema: type };
      const parser = type ?? (array ? Text : parserFor(at));
      if (!array) checkDeclaredType(cls, method, p.index, decoratorName(p), parser.name, parser, declared);
      return { kind: "query", name: p.name, parser, optional, array };
    }
    case "header": {
      const optional = p.options.optional ?? false;
      const { type } = p.options;
      if (isStandardSchema(type)) return { kind: "header", name: p.name, parser: Text, optional, schema: type };
      const parser = type ?? parserFor(at);
      checkDeclaredType(cls, method, p.index, decoratorName(p), parser.name, parser, declared);
      return { kind: "header", name: p.name, parser, optional };
    }
    case "cookie": {
      const optional = p.options.optional ?? false;
      const { type, signed } = p.options;
      if (isStandardSchema(type)) return { kind: "cookie", name: p.name, parser: Text, optional, signed, schema: type };
      const parser = type ?? parserFor(at);
      checkDeclaredType(cls, method, p.index, decoratorName(p), parser.name, parser, declared);
      return { kind: "cookie", name: p.name, parser, optional, signed };
    }
    case "body": {
      const { type, ...options } = p.options;
      const validator = validatorFor(at, type);
      return isStandardSchema(validator)
        ? { kind: "bodySchema", schema: validator, options }
        : { kind: "body", type: validator as DtoClass, options };
    }
    case "queryObject": {
      const { type, ...options } = p.options;
      const validator = validatorFor(at, type);
      return { kind: "queryObject", validator: validator as StandardSchema | DtoClass, options };
    }
    case "formObject": {
      const { type, ...options } = p.options;
      const validator = validatorFor(at, type);
      return { kind: "formObject", validator: validator as StandardSchema | DtoClass, options };
    }
    case "formField": {
      const optional = p.options.optional ?? false;
      const { type } = p.options;
      if (isStandardSchema(type)) return { kind: "formField", name: p.name, parser: Text, optional, schema: type };
      const parser = type ?? parserFor(at);
      checkDeclaredType(cls, method, p.index, decoratorName(p), parser.name, parser, declared);
      return { kind: "formField", name: p.name, parser, optional };
    }
    // a file's declared type is the FormFile interface, recorded as Object: nothing to check, the
    // value is what the form reader gives (no DTO check applies, see declared-types.ts)
    case "file":
      return { kind: "file", name: p.name, optional: p.optional };
    case "files":
      return { kind: "files", name: p.name };
  }
}
