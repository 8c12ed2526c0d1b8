import { ControllerError } from "./errors.js";
import type { ClassLike } from "./metadata.js";

/*
 * TC39 standard decorators. A standard decorator is called `(value, context)` — the method itself and
 * `{ kind: "method", name, static, private, metadata, addInitializer }`, or the class and `{ kind:
 * "class", … }` — where a legacy one (TypeScript's `experimentalDecorators`) is called `(prototype,
 * key, descriptor)` or `(class)`. Every switchyard decorator tells the two apart at run time
 * ({@link isStandardContext}) and records the same metadata either way:
 *
 * - a class decorator knows its class: it records at once;
 * - a method decorator does not (standard decorators give no prototype): it writes what it would record
 *   as a list of *steps* into `context.metadata`, the object the class ends up holding as
 *   `Class[Symbol.metadata]`; the steps are replayed, in the order they were written, onto the class
 *   by its class decorator (`@Match`) or, for a class without one, by `controllers()`
 *   ({@link adoptStandardSteps}). Where a toolchain gives no `context.metadata`, the steps are kept by
 *   the method function itself, which `controllers()` finds on the prototype.
 *
 * Node 20 has no `Symbol.metadata`, and compilers only make `context.metadata` when it exists, so this
 * module defines it — as `Symbol.for("Symbol.metadata")`, the symbol esbuild and swc fall back to, so
 * every toolchain agrees — before any decorated class is defined (the decorators import this module).
 */

const symbols = Symbol as unknown as { metadata?: symbol };
if (typeof symbols.metadata !== "symbol") {
  Object.defineProperty(Symbol, "metadata", { value: Symbol.for("Symbol.metadata"), configurable: true });
}

/** `Symbol.metadata`: where a class compiled with standard decorators keeps its decorators' metadata. */
export const METADATA: symbol = symbols.metadata as symbol;

/** A TC39 decorator context, the second argument of a standard decorator call. */
export interface StandardContext {
  readonly kind: string;
  readonly name?: unknown;
  readonly static?: boolean;
  readonly private?: boolean;
  readonly metadata?: Record<PropertyKey, unknown>;
}

/** True for a TC39 decorator context (`{ kind: "method", name, … }`), which legacy decorators never receive. */
export function isStandardContext(value: unknown): value is StandardContext {
  return typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";
}

/** One recording a method decorator made, replayed onto its class. */
export type Step = (owner: ClassLike) => void;

const STEPS = Symbol("switchyard:standard-steps");

/** Steps kept by method functions, for toolchains whose contexts have no `metadata`. */
const byFunction = new WeakMap<Function, Step[]>();

/** Classes whose steps have been replayed: each is replayed once. */
const adopted = new WeakSet<ClassLike>();

/**
 * The method a standard method decorator was applied to, checked: an instance method with a public
 * name (not a getter, field or accessor; not static; not `#private`; not named `constructor`). Throws
 * the error the legacy decorator would, naming `(a class)` since a standard method decorator cannot
 * know its class.
 */
export function standardMethod(decorator: string, value: unknown, context: StandardContext): string | symbol {
  const name =
    typeof context.name === "string" || typeof context.name === "symbol" ? context.name : String(context.name);
  if (context.kind !== "method" || typeof value !== "function") {
    throw new ControllerError(
      "NOT_A_METHOD",
      "(a class)",
      String(name),
      `${decorator} is on ${context.kind === "field" ? "a property" : `a ${context.kind}`}; it belongs on a method`,
    );
  }
  if (context.static === true) {
    throw new ControllerError(
      "STATIC_METHOD",
      "(a class)",
      String(name),
      `${decorator} is on a static method; routes are instance methods`,
    );
  }
  if (context.private === true) {
    throw new ControllerError(
      "NOT_A_METHOD",
      "(a class)",
      String(name),
      `${decorator} is on a private method (#name), which controllers() cannot call; make it a public method`,
    );
  }
  if (name === "constructor") {
    throw new ControllerError(
      "RESERVED_METHOD",
      "(a class)",
      "constructor",
      `${decorator} is on a method named "constructor", which replaces the prototype's link to its class; give the method another name`,
    );
  }
  return name;
}

/** Keeps a step of a standard method decorator until its class is known. */
export function deferStep(value: Function, context: StandardContext, step: Step): void {
  const metadata = context.metadata;
  if (typeof metadata === "object" && metadata !== null) {
    if (!Object.hasOwn(metadata, STEPS)) Object.defineProperty(metadata, STEPS, { value: [] });
    (metadata[STEPS] as Step[]).push(step);
    return;
  }
  let steps = byFunction.get(value);
  if (steps === undefined) byFunction.set(value, (steps = []));
  steps.push(step);
}

/**
 * Replays the steps standard method decorators left for `cls` and every class above it (each class's
 * own steps onto that class, in the order they were written), once per class. A class compiled with
 * legacy decorators has none: nothing happens.
 */
export function adoptStandardSteps(cls: ClassLike): void {
  const chain: ClassLike[] = [];
  for (let c: unknown = cls; typeof c === "function" && c !== Function.prototype; c = Object.getPrototypeOf(c))
    chain.push(c as ClassLike);
  for (const level of chain.reverse()) adoptOwn(level);
}

/**
 * Replays the steps of this class alone. A class decorator passes its `context.metadata`: the class
 * holds it as `Class[Symbol.metadata]` only once every class decorator has run.
 */
export function adoptOwn(level: ClassLike, metadata?: unknown): void {
  if (adopted.has(level)) return;
  adopted.add(level);
  const steps = ownSteps(level, metadata);
  if (steps.length > 0) markStandard(level);
  for (const step of steps) step(level);
}

function ownSteps(
  level: ClassLike,
  metadata: unknown = Object.hasOwn(level, METADATA)
    ? (level as unknown as Record<symbol, unknown>)[METADATA]
    : undefined,
): Step[] {
  const steps: Step[] = [];
  if (typeof metadata === "object" && metadata !== null && Object.hasOwn(metadata, STEPS))
    steps.push(...((metadata as Record<symbol, Step[]>)[STEPS] ?? []));
  const prototype: unknown = level.prototype;
  if (typeof prototype === "object" && prototype !== null) {
    for (const key of Reflect.ownKeys(prototype)) {
      const value = Object.getOwnPropertyDescriptor(prototype, key)?.value;
      if (typeof value !== "function") continue;
      const kept = byFunction.get(value);
      if (kept === undefined) continue;
      byFunction.delete(value);
      steps.push(...kept);
    }
  }
  return steps;
}

/** True when `cls` or a class above it was decorated with standard decorators. */
export function usesStandardDecorators(cls: ClassLike): boolean {
  for (let c: unknown = cls; typeof c === "function" && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (standardClasses.has(c as ClassLike)) return true;
  }
  return false;
}

const standardClasses = new WeakSet<ClassLike>();

/** Notes that a class was decorated the standard way (for the hints of startup errors). */
export function markStandard(cls: ClassLike): void {
  standardClasses.add(cls);
}
