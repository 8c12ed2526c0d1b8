import { compilerLibraries, type Libraries, type TypeMetadata } from "../dto-libraries.js";
import { planOf } from "./plan.js";
import { type Failure, type RunOptions, validateObject } from "./run.js";
import { FALLBACK, type Fallback, instanceUnsupported, toInstance, typeOf } from "./to-instance.js";

/*
 * The compiled DTO validator: a class's class-validator and class-transformer metadata read once into
 * plans (plan.ts, to-instance.ts), then each request's value built and checked by straight loops over
 * them (run.ts) — the decisions and messages class-validator and class-transformer give, without their
 * per-call metadata lookups. A class the plans do not cover is validated by the libraries themselves;
 * `compiledStatus` says which and why.
 */

export { FALLBACK, type Fallback } from "./to-instance.js";
export type { Failure } from "./run.js";

/** Whether a DTO class is validated by the compiled validator, or why it falls back to class-validator. */
export type CompiledStatus = { readonly compiled: true } | { readonly compiled: false; readonly reason: string };

const statuses = new WeakMap<Function, CompiledStatus>();

/**
 * Whether `type` is compiled: its own plans and those of every class its `@Type`s name (statically:
 * `@Type(() => Address)`; a `@Type` function that reads the object is resolved per request, and an
 * uncovered class it gives then falls back for that request).
 */
export function compiledStatus(type: Function): CompiledStatus {
  let status = statuses.get(type);
  if (status === undefined) {
    const libraries = compilerLibraries();
    status =
      libraries === null
        ? {
            compiled: false,
            reason:
              "class-validator or class-transformer is not the version the compiler reads, or the class-transformer handed over with provideLibraries is another copy than the one it reads",
          }
        : statusOf(libraries, type);
    statuses.set(type, status);
  }
  return status;
}

function statusOf(libraries: Libraries, root: Function): CompiledStatus {
  const seen = new Set<Function>();
  const pending = [root];
  while (pending.length > 0) {
    const type = pending.pop()!;
    if (seen.has(type)) continue;
    seen.add(type);
    const unsupported = instanceUnsupported(libraries, type);
    if (unsupported !== undefined) return { compiled: false, reason: unsupported };
    const plan = planOf(libraries, type);
    if (!("properties" in plan)) return { compiled: false, reason: plan.reason };
    for (const meta of typeMetadataOf(libraries, type)) {
      const named = staticType(meta);
      if (typeof named === "function" && ![String, Number, Boolean, Date, Object, Array].includes(named as never))
        pending.push(named);
    }
  }
  return { compiled: true };
}

function typeMetadataOf(libraries: Libraries, type: Function): TypeMetadata[] {
  const storage = libraries.transformer;
  return [type, ...storage.getAncestors(type)].flatMap((cls) => [...(storage._typeMetadatas.get(cls)?.values() ?? [])]);
}

/** The class a `@Type` names when it does not read the object; `undefined` when it does (it throws here). */
function staticType(meta: TypeMetadata): unknown {
  try {
    return typeOf(meta, {}, {}, "");
  } catch {
    return undefined;
  }
}

/** The instance `type` validates `plain` into, or its failures, or `FALLBACK` (ask class-validator). */
export type CompiledOutcome = { readonly instance: object; readonly failures: readonly Failure[] } | Fallback;

/**
 * `plainToInstance(type, plain)` then `validate(instance, { forbidUnknownValues: true, … })`, compiled.
 * `type` must be compiled (`compiledStatus`).
 */
export function validateCompiled(type: Function, plain: object, options: RunOptions): CompiledOutcome {
  const libraries = compilerLibraries()!;
  const instance = toInstance(libraries, type, plain);
  if (instance === FALLBACK) return FALLBACK;
  const failures: Failure[] = [];
  if (validateObject(libraries, instance, options, failures) === FALLBACK) return FALLBACK;
  return { instance, failures };
}
