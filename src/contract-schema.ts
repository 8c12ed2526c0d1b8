import { isStandardSchema, type StandardSchema } from "./schema/standard.js";

/** A schema a response contract can run: a Standard Schema, a DTO class, or a list of either (`[Dto]`). */
export type Runnable = StandardSchema | Function | readonly [Runnable];

/** True for a {@link Runnable} schema; a JSON Schema object documents a reply but cannot check one. */
export function runnable(schema: unknown): schema is Runnable {
  if (isStandardSchema(schema) || typeof schema === "function") return true;
  return Array.isArray(schema) && schema.length === 1 && runnable(schema[0]);
}
