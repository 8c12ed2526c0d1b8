import { factOf } from "../src/parsers/facts.js";
import type { ParserSchema, PathParser } from "../src/parsers/parser.js";
import { registerClassSchemas } from "../src/tools/openapi/schemas.js";
import type { HandlerInfo, HandlerInput, JsonSchemaSource, ResponseInfo, StandardJsonSchema } from "../src/tree.js";
import { loadClassTransformer } from "./class-validator.cjs";
import { methodDecorator } from "./class-or-method.js";
import { nameOf, where, type ClassLike } from "./metadata.js";
import type { ArgSource } from "./plan.js";
import { returnsOf } from "./returns.js";
import { classValidator } from "./validation.js";

/*
 * What decorated classes tell the route tools (listing, OpenAPI, `urlFor`): a controller method's
 * name, tags and `@Describe` docs go on its handler leaf, with the query, header, cookie and body
 * values its parameters read; a newtype's schema is its base type's, narrowed by the class-validator
 * constraints OpenAPI can say (`@Min`, `@Max`, `@Length`, `@Matches`); a DTO class's schema is read
 * off its class-validator metadata (see `dtoSchema`), and registered with the core so that OpenAPI
 * reads DTO classes wherever a schema is given.
 */

const DOCS = "switchyard:docs";

/** One reply of {@link RouteDocs.responses}: `schema` may be a DTO class, `[Dto]` an array of them. */
export type ResponseDocs = ResponseInfo;

/** OpenAPI facts about one route method, for {@link Describe}. */
export interface RouteDocs {
  readonly summary?: string;
  readonly description?: string;
  /** Tags instead of the controller's name. */
  readonly tags?: readonly string[];
  /**
   * The replies by status code: OpenAPI response objects, where `schema` (a DTO class, `[Dto]`, a
   * Standard JSON Schema value such as a zod schema, or a JSON Schema object) stands for the JSON
   * content (`{ 200: { description: "the user", schema: User } }`).
   */
  readonly responses?: Readonly<Record<string, ResponseDocs>>;
  /**
   * The route's response contract over the app's `contracts` option (`HandlerInfo.contract`): its JSON
   * replies checked or stripped against the schemas of `responses` and `@Returns`; `"off"`: none.
   */
  readonly contract?: "strip" | "check" | "off";
}

/**
 * Method decorator: OpenAPI docs for a `@Route` method (summary, description, tags, responses). Routing
 * ignores them. Works under legacy and TC39 standard decorators.
 */
export function Describe(docs: RouteDocs): DescribeDecorator {
  if (typeof docs !== "object" || docs === null) throw new TypeError("@Describe: expected an object of docs");
  const decorator = methodDecorator("@Describe", (owner, method) => Reflect.defineMetadata(DOCS, docs, owner, method));
  return decorator as DescribeDecorator;
}

/** What `@Describe` returns: a method decorator for both call shapes. */
export interface DescribeDecorator {
  /** TC39 standard decorators. */
  (value: Function, context: ClassMethodDecoratorContext): void;
  /** TypeScript's legacy decorators (`experimentalDecorators`). */
  (target: object, method: string | symbol, descriptor: PropertyDescriptor): void;
}

/**
 * The handler info of a controller method: `Class.method` as its name, the method itself as a
 * `urlFor` target (`Users.prototype.byId`), the class's name without a `Controller` suffix as its tag,
 * the query, header, cookie and body values its parameters read (`args`, from the plan), and its
 * `@Describe` docs (a route inherited from a base class keeps the docs written there).
 */
export function handlerInfoOf(
  cls: ClassLike,
  method: string | symbol,
  args: readonly (ArgSource | undefined)[] = [],
): HandlerInfo {
  const inputs = args.flatMap(inputOf);
  const docs = (Reflect.getMetadata(DOCS, cls, method) as RouteDocs | undefined) ?? {};
  // `@Returns` entries over `@Describe`'s responses, status by status
  const returned = returnsOf(cls, method);
  const responses = returned === undefined ? docs.responses : { ...docs.responses, ...returned };
  const target = (cls.prototype as Record<string | symbol, unknown>)[method];
  return {
    name: where(cls, method),
    ...(typeof target === "function" ? { target } : {}),
    tags: docs.tags ?? [nameOf(cls).replace(/(.)Controller$/, "$1")],
    ...(docs.summary === undefined ? {} : { summary: docs.summary }),
    ...(docs.description === undefined ? {} : { description: docs.description }),
    ...(responses === undefined ? {} : { responses }),
    ...(docs.contract === undefined ? {} : { contract: docs.contract }),
    ...(inputs.length === 0 ? {} : { inputs }),
  };
}

/**
 * An argument source as the fields read here: read loosely, so that a source another kind of
 * parameter adds (a Standard Schema in place of a parser) is read as soon as the plan gives it.
 */
interface LooseArg {
  readonly kind: string;
  readonly name?: string;
  readonly parser?: PathParser<unknown>;
  readonly optional?: boolean;
  readonly array?: boolean;
  readonly signed?: unknown;
  readonly schema?: unknown;
  readonly type?: unknown;
  readonly validator?: unknown;
  readonly options?: { readonly forbidNonWhitelisted?: boolean };
}

const SIGNED = "A signed cookie (cookieSigner): one whose signature is wrong counts as not sent.";

/**
 * What a `@Query`, `@Header`, `@Cookie`, `@Body`, `@FormField`, `@Form`, `@File` or `@Files` parameter reads, for OpenAPI. `required` is whether
 * the route refuses the value missing: a repeated query key read as an array never is (none is `[]`).
 */
function inputOf(arg: ArgSource | undefined): HandlerInput[] {
  const source = arg as LooseArg | undefined;
  if (source === undefined) return [];
  const schema = source.schema === undefined ? {} : { schema: source.schema as JsonSchemaSource };
  const strict = source.options?.forbidNonWhitelisted === true;
  switch (source.kind) {
    case "query":
    case "header":
    case "cookie":
      return [
        {
          in: source.kind as "query" | "header" | "cookie",
          name: source.name!,
          parser: source.parser!,
          required: source.optional !== true && source.array !== true,
          ...(source.array === true ? { array: true } : {}),
          ...schema,
          ...(source.kind === "cookie" && source.signed !== undefined ? { description: SIGNED } : {}),
        },
      ];
    case "body":
      return [
        typeof source.type === "function"
          ? { in: "body", type: nameOf(source.type as ClassLike), schema: dtoSchema(source.type, strict) }
          : { in: "body" },
      ];
    case "bodySchema":
      return [{ in: "body", ...schema }];
    // the whole query or form as one object: a DTO's schema from its constraints, else the schema given
    case "queryObject":
    case "formObject":
      return [
        {
          in: source.kind as "queryObject" | "formObject",
          schema:
            typeof source.validator === "function"
              ? dtoSchema(source.validator, strict)
              : (source.validator as JsonSchemaSource),
        },
      ];
    case "formField":
      return [
        { in: "formField", name: source.name!, parser: source.parser!, required: source.optional !== true, ...schema },
      ];
    case "file":
      return [{ in: "formFile", name: source.name!, required: source.optional !== true }];
    case "files":
      return [{ in: "formFile", name: source.name!, required: false, array: true }];
    default:
      return [];
  }
}

interface Constraint {
  readonly type?: string;
  readonly name?: string;
  readonly propertyName: string;
  readonly constraints?: readonly unknown[];
  readonly each?: boolean;
}

/**
 * The schema of a newtype's values: `base`'s, with the class-validator constraints on its `value`
 * that JSON Schema can state (`@Min` → `minimum`, `@Max` → `maximum`, `@Length` → `minLength` /
 * `maxLength`, `@Matches` without flags → `pattern`). Other constraints narrow nothing here.
 */
export function newtypeSchema(cls: ClassLike, base: PathParser<unknown>): ParserSchema {
  const schema: Record<string, unknown> = { ...(factOf(base, "openApiSchema") ?? {}) };
  const validator = classValidator();
  if (validator === null) return schema;
  const metadata = validator
    .getMetadataStorage()
    .getTargetValidationMetadatas(cls, "", true, false) as readonly Constraint[];
  for (const { name, propertyName, constraints = [] } of metadata) {
    if (propertyName !== "value") continue;
    const [first, second] = constraints;
    if (name === "min" && typeof first === "number") schema.minimum = Math.max(first, numberOr(schema.minimum, first));
    if (name === "max" && typeof first === "number") schema.maximum = Math.min(first, numberOr(schema.maximum, first));
    if (name === "isLength") {
      if (typeof first === "number") schema.minLength = first;
      if (typeof second === "number") schema.maxLength = second;
    }
    if (name === "matches" && first instanceof RegExp && first.flags === "") schema.pattern = first.source;
    if (name === "matches" && typeof first === "string" && (second === undefined || second === ""))
      schema.pattern = first;
  }
  return schema;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

/* ---------------------------------------------------------------------------------------------------
 * DTO classes as JSON Schema (draft 2020-12), read off class-validator's metadata storage.
 *
 * Derived here rather than with class-validator-jsonschema: that package writes OpenAPI 3.0 schemas
 * (`nullable`), drops a `@Matches` regex's flags (a stricter pattern than the route checks), keys nested
 * classes by name (two `Address` classes of different modules become one schema), finds nested types
 * through class-transformer's internal storage module, and would be one more optional peer with four
 * packages of its own — for the dozen constraints JSON Schema can state. Here:
 *
 * - a property is `required` when the route refuses it missing: it has a constraint that fails on
 *   `undefined` and no `@IsOptional()`/`@ValidateIf()` (`@IsDefined()` always requires it; one with only
 *   `@ValidateNested()` or `@Allow()` may be left out, as class-validator lets it);
 * - `@IsOptional()` also lets `null` through (class-validator skips the checks for it);
 * - a constraint that checks the type gives it (`@IsString()`, `@Length()` and `@Matches()` a string,
 *   `@Min()` a number, `@IsInt()` an integer, …); a custom constraint narrows nothing;
 * - `{ each: true }` applies to the items (an array, or the value itself when it is not one);
 * - nested DTOs (`@ValidateNested()` with class-transformer's `@Type(() => Address)`, found by asking
 *   class-transformer what it builds) are `$ref`s to `$defs` named after their classes, which OpenAPI
 *   turns into shared components;
 * - for a route with `forbidNonWhitelisted`, every class of the graph is closed
 *   (`additionalProperties: false`), as the route refuses any property without a decorator.
 * ------------------------------------------------------------------------------------------------- */

type Schema = Record<string, unknown>;

const vendor = "switchyard-router/class-validator";
const sources = new WeakMap<Function, { open?: StandardJsonSchema; strict?: StandardJsonSchema }>();

/**
 * The Standard JSON Schema of a DTO class (`strict`: closed objects, for `forbidNonWhitelisted`): a
 * `$ref` to the class in `$defs`, beside the classes it nests.
 */
export function dtoSchema(type: Function, strict = false): StandardJsonSchema {
  let known = sources.get(type);
  if (known === undefined) sources.set(type, (known = {}));
  const key = strict ? "strict" : "open";
  const existing = known[key];
  if (existing !== undefined) return existing;
  const make = () => new DtoConverter(strict).document(type);
  const source: StandardJsonSchema = {
    "~standard": { version: 1, vendor, jsonSchema: { input: make, output: make } },
  };
  known[key] = source;
  return source;
}

// OpenAPI reads a DTO class given as a schema anywhere (`described` inputs and responses) through this
registerClassSchemas((type) => (hasConstraints(type) ? dtoSchema(type) : undefined));

function hasConstraints(type: Function): boolean {
  return constraintsOf(type).length > 0;
}

function constraintsOf(type: Function): readonly Constraint[] {
  const validator = classValidator();
  if (validator === null) return [];
  return validator.getMetadataStorage().getTargetValidationMetadatas(type, "", true, false) as readonly Constraint[];
}

/** Constraints that only say when to check the others, or that a property may exist. */
const NOT_CHECKS = new Set(["conditionalValidation", "whitelistValidation", "nestedValidation", "isDefined"]);

/** Converts one DTO class and the classes it nests into one JSON Schema with `$defs`. */
class DtoConverter {
  private readonly defs: Record<string, Schema> = {};
  private readonly names = new Map<Function, string>();

  constructor(private readonly strict: boolean) {}

  document(type: Function): Schema {
    const ref = this.refTo(type);
    return { $schema: "https://json-schema.org/draft/2020-12/schema", ...ref, $defs: this.defs };
  }

  /** `{ $ref }` to `type`'s definition, converting it on first sight (a class that nests itself refers to itself). */
  private refTo(type: Function): Schema {
    let name = this.names.get(type);
    if (name === undefined) {
      const base = type.name === "" ? "Dto" : type.name;
      name = base;
      for (let n = 2; name in this.defs; n++) name = `${base}_${n}`;
      this.names.set(type, name);
      this.defs[name] = {};
      this.defs[name] = this.classSchema(type);
    }
    return { $ref: `#/$defs/${name}` };
  }

  private classSchema(type: Function): Schema {
    const byProperty = new Map<string, Constraint[]>();
    for (const c of constraintsOf(type)) {
      const list = byProperty.get(c.propertyName);
      if (list === undefined) byProperty.set(c.propertyName, [c]);
      else list.push(c);
    }
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const [property, constraints] of byProperty) {
      const conditional = constraints.some((c) => c.type === "conditionalValidation");
      const optional = constraints.some((c) => c.type === "conditionalValidation" && c.name === "isOptional");
      const checks = constraints.some((c) => !NOT_CHECKS.has(c.type ?? ""));
      const defined = constraints.some((c) => c.type === "isDefined");
      let schema = conditional && !optional ? {} : this.propertySchema(type, property, constraints);
      if (optional) schema = withNull(schema);
      properties[property] = schema;
      if (defined || (checks && !conditional)) required.push(property);
    }
    return {
      type: "object",
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(this.strict ? { additionalProperties: false } : {}),
    };
  }

  /** One property's schema: the constraints on the value, and those on its items (`each`). */
  private propertySchema(type: Function, property: string, constraints: readonly Constraint[]): Schema {
    const own: Schema = {};
    const items: Schema = {};
    let eachItems = false;
    for (const c of constraints) {
      if (c.type === "nestedValidation") {
        const nested = this.nestedSchema(type, property, c.each === true);
        if (nested.array) {
          own.type = "array";
          Object.assign(items, nested.schema);
          eachItems = true;
        } else Object.assign(own, nested.schema);
        continue;
      }
      if (c.each === true) {
        eachItems = true;
        applyConstraint(items, c);
      } else applyConstraint(own, c);
    }
    if (!eachItems) return own;
    if (own.type === "array") return { ...own, items };
    // `each` on a value that is no array checks the value itself
    return {
      anyOf: [
        { ...own, type: "array", items },
        { ...own, ...items },
      ],
    };
  }

  /** A nested DTO: the class class-transformer builds for the property (`@Type`), else its declared type. */
  private nestedSchema(type: Function, property: string, each: boolean): { schema: Schema; array: boolean } {
    const single = builtClass(type, property, {});
    const inArray = builtClass(type, property, [{}]);
    const declared = Reflect.getMetadata("design:type", (type as { prototype: object }).prototype, property) as unknown;
    const array = each || declared === Array || (single === undefined && inArray !== undefined);
    const nested = (array ? inArray : single) ?? (typeof declared === "function" ? declared : undefined);
    if (nested === undefined || nested === Object || nested === Array || !hasConstraints(nested))
      return { schema: { type: "object" }, array };
    return { schema: this.refTo(nested), array };
  }
}

/** The class class-transformer makes of `value` as `type`'s `property` (of its first item for an array). */
function builtClass(type: Function, property: string, value: object): Function | undefined {
  const transformer = loadClassTransformer() as {
    plainToInstance?: (cls: Function, plain: object) => Record<string, unknown>;
  } | null;
  if (typeof transformer?.plainToInstance !== "function") return undefined;
  try {
    const built = transformer.plainToInstance(type, { [property]: value })[property];
    const sample = Array.isArray(value) ? (Array.isArray(built) ? built[0] : undefined) : built;
    const cls = typeof sample === "object" && sample !== null ? sample.constructor : undefined;
    return cls === Object ? undefined : cls;
  } catch {
    // a @Transform that throws on a probe: no answer from class-transformer
    return undefined;
  }
}

/** What one class-validator constraint says in JSON Schema (the type it checks, the bounds it sets). */
function applyConstraint(schema: Schema, c: Constraint): void {
  const [first, second] = c.constraints ?? [];
  switch (c.name) {
    case "isString":
      schema.type = "string";
      break;
    case "isNumber":
      schema.type ??= "number";
      break;
    case "isInt":
      schema.type = "integer";
      break;
    case "isBoolean":
      schema.type = "boolean";
      break;
    case "isArray":
      schema.type = "array";
      break;
    case "isObject":
      schema.type = "object";
      break;
    case "isDate":
    case "isDateString":
    case "isISO8601":
      schema.type = "string";
      if (c.name !== "isISO8601") schema.format = "date-time";
      break;
    case "isEmail":
      schema.type = "string";
      schema.format = "email";
      break;
    case "isUrl":
      schema.type = "string";
      schema.format = "uri";
      break;
    case "isUUID":
      schema.type = "string";
      schema.format = "uuid";
      break;
    case "isIn":
      if (Array.isArray(first)) schema.enum = [...first];
      break;
    case "isEnum":
      schema.enum = Array.isArray(second) ? [...second] : enumValues(first);
      break;
    case "equals":
      schema.const = first;
      break;
    case "notEquals":
      schema.not = { const: first };
      break;
    case "isNotEmpty":
      schema.not = { enum: ["", null] };
      break;
    case "min":
      if (typeof first === "number") {
        schema.type ??= "number";
        schema.minimum = first;
      }
      break;
    case "max":
      if (typeof first === "number") {
        schema.type ??= "number";
        schema.maximum = first;
      }
      break;
    case "isPositive":
      schema.type ??= "number";
      schema.exclusiveMinimum = 0;
      break;
    case "isNegative":
      schema.type ??= "number";
      schema.exclusiveMaximum = 0;
      break;
    case "isDivisibleBy":
      if (typeof first === "number") {
        schema.type ??= "number";
        schema.multipleOf = first;
      }
      break;
    case "isLength":
      schema.type = "string";
      if (typeof first === "number") schema.minLength = first;
      if (typeof second === "number") schema.maxLength = second;
      break;
    case "minLength":
      schema.type = "string";
      if (typeof first === "number") schema.minLength = first;
      break;
    case "maxLength":
      schema.type = "string";
      if (typeof first === "number") schema.maxLength = first;
      break;
    case "matches": {
      schema.type = "string";
      const pattern = patternOf(first, second);
      if (pattern !== undefined) schema.pattern = pattern;
      break;
    }
    case "arrayMinSize":
      schema.type = "array";
      if (typeof first === "number") schema.minItems = first;
      break;
    case "arrayMaxSize":
      schema.type = "array";
      if (typeof first === "number") schema.maxItems = first;
      break;
    case "arrayNotEmpty":
      schema.type = "array";
      schema.minItems = 1;
      break;
    case "arrayUnique":
      schema.type = "array";
      schema.uniqueItems = true;
      break;
    case "isAlpha":
    case "isAlphanumeric":
    case "isAscii":
    case "isLowercase":
    case "isUppercase":
    case "isNumberString":
    case "isBooleanString":
    case "isHexadecimal":
    case "isJSON":
    case "isMongoId":
      schema.type = "string";
      break;
    default:
      // a constraint JSON Schema cannot state narrows nothing here
      break;
  }
}

/**
 * A `@Matches` pattern JSON Schema reads the same way: a regex without flags (or only `u`); one with
 * flags (`i`, `m`, `s`) has no JSON Schema equal, and a stricter pattern would refuse what the route accepts.
 */
function patternOf(pattern: unknown, flags: unknown): string | undefined {
  if (pattern instanceof RegExp) return pattern.flags === "" || pattern.flags === "u" ? pattern.source : undefined;
  if (typeof pattern === "string" && (flags === undefined || flags === "" || flags === "u")) return pattern;
  return undefined;
}

/** A TypeScript enum's values (a numeric enum also maps its values back to its names: those are left out). */
function enumValues(enumObject: unknown): unknown[] {
  if (typeof enumObject !== "object" || enumObject === null) return [];
  const entries = Object.entries(enumObject as Record<string, unknown>);
  return entries.filter(([key]) => !/^\d+$/.test(key)).map(([, value]) => value);
}

/** `schema`, or `null`. */
function withNull(schema: Schema): Schema {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === "string" && Object.keys(schema).length === 1) return { type: [schema.type, "null"] };
  return { anyOf: [schema, { type: "null" }] };
}
