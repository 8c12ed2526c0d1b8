import { isThenable } from "../../src/thenable.js";
import type { Libraries, TypeMetadata } from "../dto-libraries.js";

/*
 * class-transformer's `plainToInstance(type, plain)` with its default options, for classes whose
 * class-transformer metadata is only plain `@Type(() => C)` (or `@Exclude`/`@Transform` toward plain
 * only): the same steps in the same order — `new type()` (so field initialisers run), then every key of
 * the plain value but `__proto__` and `constructor`, skipping the names of methods and of accessors
 * without a setter, each value copied (nested plain objects and arrays as new ones) or made an instance
 * of its `@Type`, then assigned. Anything else it would do differently (`@Expose`, `@Transform` toward
 * the class, discriminators, a Map) makes the class one this module does not build: `FALLBACK`.
 */

/** The answer that sends a value back to class-transformer and class-validator themselves. */
export const FALLBACK: unique symbol = Symbol("compiled-dto fallback");
export type Fallback = typeof FALLBACK;

/** A class's `@Type` metadata by property (its own, else the nearest base class's), or why it is not built. */
type TypesOf = ReadonlyMap<string, TypeMetadata> | { readonly reason: string };

const typesOfClass = new WeakMap<Function, TypesOf>();

/** Why class-transformer would build an instance of `type` otherwise than this module; `undefined` when not. */
export function instanceUnsupported(libraries: Libraries, type: Function): string | undefined {
  const types = typesOf(libraries, type);
  return types instanceof Map ? undefined : (types as { reason: string }).reason;
}

/** `plainToInstance(type, plain)` for a JSON object or query record, or `FALLBACK`. */
export function toInstance(libraries: Libraries, type: Function, plain: object): object | Fallback {
  return transform(libraries, plain, type, undefined) as object | Fallback;
}

/** Calls a `@Type` function as class-transformer does, with the object being built and the plain one. */
export function typeOf(meta: TypeMetadata, newObject: object, object: object, property: string): unknown {
  return meta.typeFunction ? meta.typeFunction({ newObject, object, property }) : meta.reflectedType;
}

function typesOf(libraries: Libraries, type: Function): TypesOf {
  let types = typesOfClass.get(type);
  if (types === undefined) {
    types = readTypes(libraries, type);
    typesOfClass.set(type, types);
  }
  return types;
}

function readTypes(libraries: Libraries, type: Function): TypesOf {
  const storage = libraries.transformer;
  const classes = [type, ...storage.getAncestors(type)];
  const types = new Map<string, TypeMetadata>();
  for (const cls of classes) {
    if ((storage._exposeMetadatas.get(cls)?.size ?? 0) > 0) return { reason: `@Expose on ${nameOf(cls)}` };
    for (const exclude of storage._excludeMetadatas.get(cls)?.values() ?? []) {
      if (!toPlainOnly(exclude.options)) return { reason: `@Exclude on ${nameOf(cls)} (not toPlainOnly)` };
    }
    for (const [property, transforms] of storage._transformMetadatas.get(cls) ?? []) {
      if (transforms.some((t) => !toPlainOnly(t.options)))
        return { reason: `@Transform on ${nameOf(cls)}.${property} (not toPlainOnly)` };
    }
    // findTypeMetadata: the class's own, else the nearest base class's
    for (const [property, meta] of storage._typeMetadatas.get(cls) ?? []) {
      if (meta.options?.discriminator !== undefined)
        return { reason: `@Type with a discriminator on ${nameOf(cls)}.${property}` };
      if (meta.reflectedType === Map) return { reason: `a Map property (${nameOf(cls)}.${property})` };
      if (!types.has(property)) types.set(property, meta);
    }
  }
  return types;
}

/** `@Exclude`/`@Transform` options that leave plainToInstance alone (as its storage filters them). */
function toPlainOnly(options: { toClassOnly?: boolean; toPlainOnly?: boolean } | undefined): boolean {
  return options?.toPlainOnly === true && options.toClassOnly !== true;
}

function nameOf(cls: Function): string {
  return cls.name === "" ? "(anonymous class)" : cls.name;
}

const nodeBuffer = (globalThis as { Buffer?: unknown }).Buffer;

/** TransformOperationExecutor.transform, PLAIN_TO_CLASS, default options, values a JSON body or query holds. */
function transform(libraries: Libraries, value: unknown, type: unknown, arrayType: unknown): unknown {
  if (Array.isArray(value)) {
    const array = arrayType ? arrayOf(arrayType) : [];
    if (array === FALLBACK) return FALLBACK;
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) continue; // forEach skips holes
      const item = transform(libraries, value[i], type, undefined);
      if (item === FALLBACK) return FALLBACK;
      array.push(item);
    }
    return array;
  }
  if (type === String) return value === null || value === undefined ? value : String(value);
  if (type === Number) return value === null || value === undefined ? value : Number(value);
  if (type === Boolean) return value === null || value === undefined ? value : Boolean(value);
  if (type === Date || value instanceof Date) {
    if (value instanceof Date) return new Date(value.valueOf());
    return value === null || value === undefined ? value : new Date(value as string);
  }
  if (nodeBuffer !== undefined && type === nodeBuffer) return FALLBACK;
  if (typeof value !== "object" || value === null) return value;
  if (isThenable(value)) return FALLBACK;
  let target = type;
  if (target === undefined || target === null) {
    // class-transformer takes a plain object's own `constructor` key for its class: leave that to it
    const own = (value as { constructor?: unknown }).constructor;
    if (own !== Object && own !== undefined) return FALLBACK;
    target = undefined;
  }
  if (target !== undefined && typeof target !== "function") return FALLBACK;
  const types = target === undefined ? undefined : typesOf(libraries, target as Function);
  if (types !== undefined && !(types instanceof Map)) return FALLBACK;
  const instance = target === undefined ? {} : new (target as new () => object)();
  if (instance instanceof Map) return FALLBACK;
  return assignKeys(libraries, instance, value, types as ReadonlyMap<string, TypeMetadata> | undefined);
}

function assignKeys(
  libraries: Libraries,
  instance: object,
  value: object,
  types: ReadonlyMap<string, TypeMetadata> | undefined,
): object | Fallback {
  const target = instance as Record<string, unknown>;
  const source = value as Record<string, unknown>;
  const prototype = (instance.constructor as { prototype?: object } | undefined)?.prototype;
  // `Object.keys`' keys in its order, without an array per object
  for (const key in value) {
    if (!Object.hasOwn(value, key) || key === "__proto__" || key === "constructor") continue;
    const subValue = source[key];
    const meta = types?.get(key);
    const type = meta === undefined ? undefined : typeOf(meta, instance, value, key);
    const arrayType = meta !== undefined && Array.isArray(subValue) ? meta.reflectedType : undefined;
    if (prototype) {
      // `hasOwn` first: the same answer for a key the prototype lacks (most), at a fifth of the cost on Bun
      const descriptor = Object.hasOwn(prototype, key) ? Object.getOwnPropertyDescriptor(prototype, key) : undefined;
      if ((descriptor && !descriptor.set) || target[key] instanceof Function) continue;
    }
    const final = transform(libraries, subValue, type, arrayType);
    if (final === FALLBACK) return FALLBACK;
    target[key] = final;
  }
  return instance;
}

/** instantiateArrayType: an array for the declared type of a property holding one (Set and others: FALLBACK). */
function arrayOf(arrayType: unknown): unknown[] | Fallback {
  if (arrayType === Array) return [];
  if (typeof arrayType !== "function") return FALLBACK;
  const made = new (arrayType as new () => object)();
  if (!(made instanceof Set) && !("push" in made)) return [];
  return Array.isArray(made) && Object.getPrototypeOf(made) === Array.prototype ? made : FALLBACK;
}
