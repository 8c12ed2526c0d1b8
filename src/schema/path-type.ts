import { NoParse, type ParserSchema, type PathParser } from "../parsers/parser.js";
import { isThenable } from "../thenable.js";
import { isStandardSchema, type SchemaOutput, type StandardSchema, vendorOf } from "./standard.js";

/*
 * A path type from a synchronous Standard Schema. Routing decides synchronously which route answers,
 * so a path type must too: a schema that validates asynchronously is refused when the parser is made,
 * at startup. How it is told, in order:
 *
 * 1. the schema says so: valibot's asynchronous schemas (`pipeAsync`, `checkAsync`, …) carry
 *    `async: true`;
 * 2. a probe: `validate` is called on a few segments (`""`, `"0"`, `"1"`, `"a"`, `"true"`, a UUID, a
 *    date) and on the caller's `examples`; a promise for any of them refuses the schema. zod runs its
 *    refinements even after a failed check and so goes asynchronous on any string; a schema whose
 *    asynchronous part sits behind a check none of the probes pass is not seen — give an example that
 *    passes in `examples`;
 * 3. and if a promise comes back for a request all the same, that segment does not parse (a
 *    mismatch, never a match), its rejection is absorbed, and the parser says so once with
 *    `console.error` (the process goes on, as for any other fault of a request).
 */

/** Options of {@link schemaParser}. */
export interface SchemaParserOptions<T> {
  /** How a value is written back into a path (`urlFor`); `String(value)` for strings, numbers, bigints and booleans by default. */
  readonly toUrlPiece?: (value: T) => string;
  /** Segments the schema accepts, probed at startup besides the built-in ones (see above). */
  readonly examples?: readonly string[];
  /** The runtime class of the values (`Number`), for the decorators' cross-check of declared types. */
  readonly valueType?: Function;
  /** The JSON Schema for OpenAPI; by default the schema's own (`~standard.jsonSchema`), when it has one. */
  readonly openApiSchema?: ParserSchema;
}

/** The probes: segments most path types accept or refuse early. */
const PROBES = ["", "0", "1", "a", "true", "00000000-0000-0000-0000-000000000000", "2000-01-01"];

/**
 * A path type whose values `schema` checks (and may transform: `z.coerce.number()`), for `pathVar`, or
 * for patterns once registered (`registerPathType(Slug)` makes `"/posts/slug:Slug"` use it):
 * ```ts
 * const Slug = schemaParser("Slug", z.string().regex(/^[a-z0-9-]+$/));
 * pathVar("slug", Slug, pathEnd((req) => req.vars.slug))
 * ```
 * A segment the schema refuses is a mismatch (the next route is tried), as for any parser. The schema
 * must be synchronous: one that validates asynchronously is a `TypeError` here (see the module's
 * comment for how that is told).
 */
export function schemaParser<S extends StandardSchema>(
  name: string,
  schema: S,
  options: SchemaParserOptions<SchemaOutput<S>> = {},
): PathParser<SchemaOutput<S>> {
  if (typeof name !== "string" || name === "") throw new TypeError("schemaParser: the name must be a non-empty string");
  if (!isStandardSchema(schema)) {
    throw new TypeError(`schemaParser("${name}"): expected a Standard Schema (zod, valibot, arktype, …)`);
  }
  refuseAsync(name, schema, options.examples ?? []);
  const validate = schema["~standard"].validate;
  let reported = false;
  const parser: PathParser<SchemaOutput<S>> = {
    name,
    parseUrlPiece(piece: string): SchemaOutput<S> | NoParse {
      const result = validate(piece);
      if (isThenable(result)) {
        result.then(undefined, () => undefined);
        if (!reported) {
          reported = true;
          console.error(
            `switchyard-router: path type ${name}: its ${vendorOf(schema)} schema validated the segment ` +
              `${JSON.stringify(piece)} asynchronously, so the segment did not match; a path type must be synchronous ` +
              "(give schemaParser an example that reaches the asynchronous part, and it is refused at startup)",
          );
        }
        return NoParse;
      }
      return result.issues === undefined ? (result.value as SchemaOutput<S>) : NoParse;
    },
    toUrlPiece: options.toUrlPiece ?? ((value) => primitivePiece(name, value)),
    ...(options.valueType === undefined ? {} : { valueType: options.valueType }),
  };
  const openApiSchema = options.openApiSchema ?? jsonSchemaOf(schema);
  return Object.freeze(openApiSchema === undefined ? parser : { ...parser, openApiSchema });
}

/** Throws when `schema` says it is asynchronous or gives a promise for a probe. */
function refuseAsync(name: string, schema: StandardSchema, examples: readonly string[]): void {
  const refuse = (why: string): never => {
    throw new TypeError(
      `schemaParser("${name}"): the ${vendorOf(schema)} schema is asynchronous (${why}), but a path type decides ` +
        "which route answers, synchronously. Use a synchronous schema here, and validate asynchronously in the " +
        "handler (a query value, a header, a cookie or the body may use an asynchronous schema)",
    );
  };
  if ((schema as { readonly async?: unknown }).async === true) refuse("it is marked async");
  for (const probe of [...PROBES, ...examples]) {
    const result = schema["~standard"].validate(probe);
    if (isThenable(result)) {
      result.then(undefined, () => undefined);
      refuse(`its validate gave a promise for ${JSON.stringify(probe)}`);
    }
  }
}

function primitivePiece(name: string, value: unknown): string {
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
    return String(value);
  throw new TypeError(
    `path type ${name}: give schemaParser a toUrlPiece option to write ${typeof value} values into a path`,
  );
}

/** The schema's JSON Schema (its output's, else its input's), when its library converts it. */
function jsonSchemaOf(schema: StandardSchema): ParserSchema | undefined {
  const converter = schema["~standard"].jsonSchema;
  if (converter === undefined) return undefined;
  for (const side of ["output", "input"] as const) {
    try {
      const { $schema: _, ...json } = converter[side]({ target: "draft-2020-12" });
      return json;
    } catch {
      // this side has no JSON Schema (a transform): try the other
    }
  }
  return undefined;
}
