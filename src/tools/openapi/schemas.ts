import { processGlobal } from "../../process-global.js";
import type { JsonSchemaObject, StandardJsonSchema } from "../../tree.js";

/*
 * Schemas for the document: whatever a route's info gives as a schema — a JSON Schema object, or a
 * value with the Standard JSON Schema interface (`~standard.jsonSchema`: zod 4, arktype 2, valibot
 * through `toStandardJsonSchema`, a DTO class through the decorators) — read as JSON Schema draft
 * 2020-12, the dialect of OpenAPI 3.1. Definitions a schema carries (`$defs`, `definitions`) become
 * shared components (`#/components/schemas/Name`), its references are rewritten to them, and a named
 * schema (a DTO's class name, a body's type) becomes a component of its own. Two schemas under one
 * name are one component when they are the same, `Name_2` when they differ. `[schema]` is an array of
 * `schema`'s values. A class is read by the reader `switchyard-router/decorators` registers (its
 * class-validator metadata), when it is loaded.
 */

/** What `switchyard-router/decorators` registers: a DTO class's schema, or `undefined` for a class it cannot read. */
export type ClassSchemaReader = (type: Function) => StandardJsonSchema | undefined;

const registered = processGlobal("openapiClassSchemas", () => ({ reader: undefined as ClassSchemaReader | undefined }));

/** Makes `reader` the one that gives DTO classes their schemas (called by `switchyard-router/decorators`). */
export function registerClassSchemas(reader: ClassSchemaReader): void {
  registered.reader = reader;
}

/** Which values a schema describes: those a request sends (`input`) or those a reply gives (`output`). */
export type SchemaSide = "input" | "output";

/** A schema as the document holds it, and why it says less than it could, when it does. */
export interface ReadSchema {
  readonly schema: JsonSchemaObject;
  /** Set when the source gave no JSON Schema (the schema is then `{}`: any value). */
  readonly note?: string;
}

const COMPONENTS = "#/components/schemas/";
/** Keywords whose values are data, not schemas: a `$ref` inside them is no reference. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "example"]);

/** The document's `components.schemas`, filled as schemas are read. */
export class Components {
  readonly schemas: Record<string, JsonSchemaObject> = {};
  /** The component name of each (base name, content key) seen. */
  private readonly named = new Map<string, string>();
  /** JSON Schemas read from sources, per side, so that each source is converted once per document. */
  private readonly read = new Map<unknown, { input?: Converted; output?: Converted }>();

  /**
   * The component name for a schema first called `base` whose content is told by `key`: the same name
   * for the same content, a fresh one (`base_2`) for other content. `true` when the name is new (the
   * caller then sets its schema).
   */
  claim(base: string, key: string): { readonly name: string; readonly fresh: boolean } {
    const clean = componentName(base);
    const seen = this.named.get(`${clean}\u0000${key}`);
    if (seen !== undefined) return { name: seen, fresh: false };
    let name = clean;
    for (let n = 2; name in this.schemas; n++) name = `${clean}_${n}`;
    this.named.set(`${clean}\u0000${key}`, name);
    this.schemas[name] = {}; // reserved until the caller sets it (a cycle refers to it meanwhile)
    return { name, fresh: true };
  }

  /** A schema `{ $ref }` to the component `name`. */
  ref(name: string): JsonSchemaObject {
    return { $ref: `${COMPONENTS}${name}` };
  }

  /** `schema`, or the component it refers to (`#/components/schemas/Name`), followed a few times. */
  resolved(schema: JsonSchemaObject): JsonSchemaObject {
    let current = schema;
    for (let hops = 0; hops < 8 && typeof current.$ref === "string" && current.$ref.startsWith(COMPONENTS); hops++) {
      const target = this.schemas[current.$ref.slice(COMPONENTS.length).replace(/~1/g, "/").replace(/~0/g, "~")];
      if (target === undefined) break;
      current = target;
    }
    return current;
  }

  /**
   * `source` as a schema of this document (see the module's comment); with `name`, an object schema of
   * its own becomes the component `name` and the result refers to it.
   */
  schemaOf(source: unknown, side: SchemaSide, name?: string): ReadSchema {
    if (Array.isArray(source) && source.length === 1) {
      const items = this.schemaOf(source[0], side);
      return { ...items, schema: { type: "array", items: items.schema } };
    }
    if (typeof source === "function" && standardOf(source) === undefined) {
      const read = registered.reader?.(source);
      if (read !== undefined) return this.schemaOf(read, side, name ?? source.name);
    }
    let cached = this.read.get(source);
    if (cached === undefined) this.read.set(source, (cached = {}));
    const converted = (cached[side] ??= jsonSchemaOf(source, side));
    if (converted.note !== undefined) return { schema: {}, note: converted.note };
    return { schema: this.hoisted(converted.schema, name) };
  }

  /** A JSON Schema with its definitions moved into the components and its references rewritten. */
  private hoisted(raw: JsonSchemaObject, name: string | undefined): JsonSchemaObject {
    const { $defs, definitions, ...root } = raw as { $defs?: unknown; definitions?: unknown } & JsonSchemaObject;
    const defs: Record<string, JsonSchemaObject> = { ...objectOr(definitions), ...objectOr($defs) };
    const names = new Map<string, string>();
    const fresh: string[] = [];
    for (const def of Object.keys(defs)) {
      const claimed = this.claim(def, canonical({ def: defs[def], uses: closure(def, defs) }));
      names.set(def, claimed.name);
      if (claimed.fresh) fresh.push(def);
    }
    // a reference into the root itself (`#`, a recursive schema): the root becomes a component
    const rootName =
      refersToRoot(root) || (name !== undefined && typeof root.$ref !== "string" && Object.keys(root).length > 0)
        ? this.claim(name ?? titleOf(root) ?? "Schema", canonical(raw))
        : undefined;
    const rewrite = (schema: unknown): unknown => rewritten(schema, names, rootName?.name);
    for (const def of fresh) this.schemas[names.get(def)!] = rewrite(defs[def]) as JsonSchemaObject;
    const body = rewrite(root) as JsonSchemaObject;
    if (rootName === undefined) return body;
    if (rootName.fresh) this.schemas[rootName.name] = body;
    return this.ref(rootName.name);
  }
}

interface Converted {
  readonly schema: JsonSchemaObject;
  readonly note?: string;
}

/** The JSON Schema a source gives for `side`, or a note saying why there is none. */
export function jsonSchemaOf(source: unknown, side: SchemaSide): Converted {
  const standard = standardOf(source);
  if (standard !== undefined) {
    const vendor = typeof standard.vendor === "string" && standard.vendor !== "" ? standard.vendor : "a schema library";
    const converter = standard.jsonSchema as Record<SchemaSide, unknown> | undefined;
    if (typeof converter === "object" && converter !== null && typeof converter[side] === "function") {
      try {
        const schema = (converter[side] as (options: { target: string }) => unknown).call(converter, {
          target: "draft-2020-12",
        });
        if (isObject(schema)) return { schema };
        return noSchema(`the ${vendor} schema's ~standard.jsonSchema.${side} gave no JSON Schema object`);
      } catch (error) {
        return noSchema(
          `the ${vendor} schema has no JSON Schema for its ${side} (${error instanceof Error ? error.message : String(error)})`,
        );
      }
    }
    const toJsonSchema = (source as { toJsonSchema?: unknown }).toJsonSchema;
    if (typeof toJsonSchema === "function") {
      const schema: unknown = toJsonSchema.call(source);
      if (isObject(schema)) return { schema };
    }
    return noSchema(
      vendor === "valibot"
        ? "a valibot schema offers no JSON Schema by itself: wrap it with toStandardJsonSchema from @valibot/to-json-schema"
        : `the ${vendor} schema offers no JSON Schema (~standard.jsonSchema)`,
    );
  }
  if (typeof source === "function") {
    return noSchema(
      `${source.name || "a function"} is no schema: a class-validator DTO class is read once switchyard-router/decorators is loaded`,
    );
  }
  if (isObject(source)) return { schema: source };
  return noSchema(`${source === null ? "null" : typeof source} is no JSON Schema`);
}

function noSchema(note: string): Converted {
  return { schema: {}, note };
}

/** The `~standard` member of a Standard Schema or Standard JSON Schema value, when `value` has one. */
function standardOf(value: unknown): { readonly vendor?: unknown; readonly jsonSchema?: unknown } | undefined {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return undefined;
  let standard: unknown;
  try {
    standard = (value as { "~standard"?: unknown })["~standard"];
  } catch {
    return undefined;
  }
  return typeof standard === "object" && standard !== null ? standard : undefined;
}

function isObject(value: unknown): value is JsonSchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function objectOr(value: unknown): Record<string, JsonSchemaObject> {
  return isObject(value) ? (value as Record<string, JsonSchemaObject>) : {};
}

/** A name OpenAPI accepts for a component (`^[a-zA-Z0-9._-]+$`). */
export function componentName(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9._-]+/g, "_");
  return clean === "" ? "Schema" : clean;
}

function titleOf(schema: JsonSchemaObject): string | undefined {
  return typeof schema.title === "string" && schema.title !== "" ? schema.title : undefined;
}

/** The definitions `def` refers to, directly or through others, with their content, by name. */
function closure(def: string, defs: Record<string, JsonSchemaObject>): Record<string, JsonSchemaObject> {
  const found: Record<string, JsonSchemaObject> = {};
  const pending = [def];
  while (pending.length > 0) {
    for (const ref of localRefs(defs[pending.pop()!])) {
      if (ref in found || ref === def || !(ref in defs)) continue;
      found[ref] = defs[ref]!;
      pending.push(ref);
    }
  }
  return found;
}

/** The definition names a schema refers to (`#/$defs/Name`, `#/definitions/Name`). */
function localRefs(schema: unknown): string[] {
  const names: string[] = [];
  walk(schema, (ref) => {
    const name = defName(ref);
    if (name !== undefined) names.push(name);
  });
  return names;
}

function refersToRoot(schema: unknown): boolean {
  let found = false;
  walk(schema, (ref) => {
    if (ref.startsWith("#") && defName(ref) === undefined) found = true;
  });
  return found;
}

/** Calls `visit` with every `$ref` in a schema (not those inside data keywords). */
function walk(schema: unknown, visit: (ref: string) => void): void {
  if (Array.isArray(schema)) {
    for (const item of schema) walk(item, visit);
    return;
  }
  if (!isObject(schema)) return;
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(key)) continue;
    if (key === "$ref" && typeof value === "string") visit(value);
    else walk(value, visit);
  }
}

const DEF_REF = /^#\/(?:\$defs|definitions)\/([^/]+)(\/.*)?$/;

function defName(ref: string): string | undefined {
  const match = DEF_REF.exec(ref);
  return match === null ? undefined : decodePointer(match[1]!);
}

function decodePointer(token: string): string {
  let decoded = token;
  try {
    decoded = decodeURIComponent(token);
  } catch {
    // a malformed escape: the token as it is
  }
  return decoded.replace(/~1/g, "/").replace(/~0/g, "~");
}

/**
 * A copy of `schema` with references to definitions and to the root pointing at the components, and
 * `$schema` and `$id` left out (an `$id` would change what its references resolve against).
 */
function rewritten(schema: unknown, names: ReadonlyMap<string, string>, rootName: string | undefined): unknown {
  if (Array.isArray(schema)) return schema.map((item) => rewritten(item, names, rootName));
  if (!isObject(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema" || key === "$id") continue;
    if (DATA_KEYWORDS.has(key)) copy[key] = structuredClone(value);
    else if (key === "$ref" && typeof value === "string") copy[key] = rewrittenRef(value, names, rootName);
    else copy[key] = rewritten(value, names, rootName);
  }
  return copy;
}

function rewrittenRef(ref: string, names: ReadonlyMap<string, string>, rootName: string | undefined): string {
  const match = DEF_REF.exec(ref);
  if (match !== null) {
    const name = names.get(decodePointer(match[1]!));
    if (name !== undefined) return `${COMPONENTS}${encodePointer(name)}${match[2] ?? ""}`;
  }
  if (rootName !== undefined && ref.startsWith("#") && match === null)
    return `${COMPONENTS}${encodePointer(rootName)}${ref.slice(1)}`;
  return ref;
}

function encodePointer(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A key for a JSON value that does not depend on the order of object keys. */
export function canonical(value: unknown): string {
  return JSON.stringify(sortedKeys(value)) ?? "undefined";
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key])]),
  );
}
