/*
 * Standard Schema (version 1): the interface zod (3.24+ and 4), valibot (1), arktype (2) and other
 * schema libraries share. A schema value carries its own `~standard.validate`, so switchyard never loads
 * a schema library: it calls the method of the value it is given. The interface is written out here
 * (only what switchyard reads), so the package's types need no package of the spec; a schema of any of
 * those libraries is assignable to it.
 */

/** A Standard Schema: a value whose `~standard` member validates unknown input into `Output`. */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaProps<Input, Output>;
}

/** The `~standard` member of a {@link StandardSchema}. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** The version of the spec: 1. */
  readonly version: 1;
  /** The schema library (`zod`, `valibot`, `arktype`, …). */
  readonly vendor: string;
  /**
   * Checks `value`: its output, or the issues found. The result may be a promise (an asynchronous
   * refinement); switchyard awaits it where a reader can wait (query and header values, cookies, the
   * body), and refuses a schema that gives one as a path type.
   */
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  /** The input and output types, for the type checker only. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /**
   * JSON Schema of the input or output, where the library provides it (the Standard JSON Schema
   * interface: zod 4.2+, arktype 2.1.28+); OpenAPI reads it.
   */
  readonly jsonSchema?: StandardJsonSchemaConverter | undefined;
}

/** What `validate` gives: the output value, or the issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** One problem a schema found: a message, and where in the value (`["lines", 1, "qty"]`). */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** A library's JSON Schema converter (`~standard.jsonSchema`). */
export interface StandardJsonSchemaConverter {
  /** The JSON Schema of the values the schema accepts (`target`: `"draft-2020-12"` for OpenAPI 3.1). May throw. */
  input(options: { readonly target: string }): Record<string, unknown>;
  /** The JSON Schema of the values it gives. May throw (a transform has none). */
  output(options: { readonly target: string }): Record<string, unknown>;
}

/** The type a schema's successful validation gives. */
export type SchemaOutput<S extends StandardSchema> = NonNullable<S["~standard"]["types"]>["output"];

/** The type a schema accepts. */
export type SchemaInput<S extends StandardSchema> = NonNullable<S["~standard"]["types"]>["input"];

/**
 * True when `value` is a Standard Schema: an object or a function (an arktype `Type` is callable) with a
 * `~standard` member of version 1 whose `validate` is a function.
 */
export function isStandardSchema(value: unknown): value is StandardSchema {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  let props: unknown;
  try {
    props = (value as Partial<StandardSchema>)["~standard"];
  } catch {
    return false;
  }
  return (
    typeof props === "object" &&
    props !== null &&
    (props as Partial<StandardSchemaProps>).version === 1 &&
    typeof (props as Partial<StandardSchemaProps>).validate === "function"
  );
}

/** The library a schema comes from, for messages: `zod`, `valibot`, … (`a schema` when it says none). */
export function vendorOf(schema: StandardSchema): string {
  const vendor = schema["~standard"].vendor;
  return typeof vendor === "string" && vendor !== "" ? vendor : "a schema";
}
