import type { ParserSchema, PathParser } from "../src/parsers/parser.js";
import type { HandlerInfo, HandlerInput } from "../src/tree.js";
import { nameOf, where, type ClassLike } from "./metadata.js";
import type { ArgSource } from "./plan.js";
import { classValidator } from "./validation.js";

/*
 * What decorated classes tell the route tools (listing, OpenAPI, `urlFor`): a controller method's
 * name, tags and `@Describe` docs go on its handler leaf; a newtype's schema is its base type's,
 * narrowed by the class-validator constraints OpenAPI can say (`@Min`, `@Max`, `@Length`, `@Matches`).
 */

const DOCS = "switchyard:docs";

/** OpenAPI facts about one route method, for {@link Describe}. */
export interface RouteDocs {
  readonly summary?: string;
  readonly description?: string;
  /** Tags instead of the controller's name. */
  readonly tags?: readonly string[];
  /** OpenAPI response objects by status code (`{ "200": { description: "the user" } }`). */
  readonly responses?: Readonly<Record<string, unknown>>;
}

/**
 * Method decorator: OpenAPI docs for a `@Route` method (summary, description, tags, responses). Routing
 * ignores them.
 */
export function Describe(docs: RouteDocs): (target: object, method: string | symbol) => void {
  if (typeof docs !== "object" || docs === null) throw new TypeError("@Describe: expected an object of docs");
  return (target, method) => {
    Reflect.defineMetadata(DOCS, docs, target.constructor, method);
  };
}

/**
 * The handler info of a controller method: `Class.method` as its name, the method itself as a
 * `urlFor` target (`Users.prototype.byId`), the class's name without a `Controller` suffix as its tag,
 * the query, header and body values its parameters read (`args`, from the plan), and its `@Describe` docs (a route inherited from a base class keeps the docs written there).
 */
export function handlerInfoOf(
  cls: ClassLike,
  method: string | symbol,
  args: readonly (ArgSource | undefined)[] = [],
): HandlerInfo {
  const inputs = args.flatMap(inputOf);
  const docs = (Reflect.getMetadata(DOCS, cls, method) as RouteDocs | undefined) ?? {};
  const target = (cls.prototype as Record<string | symbol, unknown>)[method];
  return {
    name: where(cls, method),
    ...(typeof target === "function" ? { target } : {}),
    tags: docs.tags ?? [nameOf(cls).replace(/(.)Controller$/, "$1")],
    ...(docs.summary === undefined ? {} : { summary: docs.summary }),
    ...(docs.description === undefined ? {} : { description: docs.description }),
    ...(docs.responses === undefined ? {} : { responses: docs.responses }),
    ...(inputs.length === 0 ? {} : { inputs }),
  };
}

/** What a `@Query`, `@Header` or `@Body` parameter reads, for OpenAPI. */
function inputOf(arg: ArgSource | undefined): HandlerInput[] {
  switch (arg?.kind) {
    case "query":
      return [{ in: "query", name: arg.name, parser: arg.parser, required: !arg.optional, array: arg.array }];
    case "header":
      return [{ in: "header", name: arg.name, parser: arg.parser, required: !arg.optional }];
    case "body":
      return [{ in: "body", type: arg.type.name }];
    default:
      return [];
  }
}

interface Constraint {
  readonly name?: string;
  readonly propertyName: string;
  readonly constraints?: readonly unknown[];
}

/**
 * The schema of a newtype's values: `base`'s, with the class-validator constraints on its `value`
 * that JSON Schema can state (`@Min` → `minimum`, `@Max` → `maximum`, `@Length` → `minLength` /
 * `maxLength`, `@Matches` without flags → `pattern`). Other constraints narrow nothing here.
 */
export function newtypeSchema(cls: ClassLike, base: PathParser<unknown>): ParserSchema {
  const schema: Record<string, unknown> = { ...(base.openApiSchema ?? {}) };
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
