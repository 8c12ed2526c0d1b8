import { ControllerError } from "./errors.js";
import { nameOf, type ClassLike } from "./metadata.js";

/*
 * What every decorator checks about where it was applied, before recording anything: that it was
 * called the legacy way (TypeScript's `experimentalDecorators`), and on an instance member of a class
 * whose prototype still leads back to it.
 */

/** How to switch a toolchain to the decorators these are: one message for every decorator. */
const ENABLE_LEGACY_DECORATORS =
  "switchyard-router's decorators are TypeScript's legacy decorators (they need parameter decorators and " +
  "decorator metadata, which TC39 standard decorators do not have), but this code was compiled with " +
  'standard decorators. Enable legacy decorators: tsc — "experimentalDecorators": true and ' +
  '"emitDecoratorMetadata": true in tsconfig.json; swc (@swc/jest, @swc/register) — jsc.parser.decorators: ' +
  "true, jsc.transform.legacyDecorator: true, jsc.transform.decoratorMetadata: true; esbuild-based tools " +
  '(tsx, Vite, esbuild) — "experimentalDecorators": true in tsconfig.json (esbuild emits no decorator ' +
  "metadata: give @Query, @Header and @Body their types explicitly)";

interface StandardContext {
  readonly kind: string;
  readonly name?: unknown;
}

/** A TC39 decorator context (`{ kind: "method", name, … }`), which legacy decorators never receive. */
function isStandardContext(value: unknown): value is StandardContext {
  return typeof value === "object" && value !== null && typeof (value as { kind?: unknown }).kind === "string";
}

/**
 * Throws the one clear error when a decorator was called as a TC39 standard decorator: `(value,
 * context)` instead of legacy `(target)` / `(prototype, key, descriptor)`.
 */
export function rejectStandardCall(decorator: string, context: unknown): void {
  if (!isStandardContext(context)) return;
  const name =
    typeof context.name === "string" || typeof context.name === "symbol" ? String(context.name) : "(anonymous)";
  const onClass = context.kind === "class";
  throw new ControllerError(
    "STANDARD_DECORATORS",
    onClass ? name : "(a class)",
    onClass ? undefined : name,
    `${decorator}: ${ENABLE_LEGACY_DECORATORS}`,
  );
}

/**
 * The class an instance-member decorator was applied in. Refuses a static member, a member named
 * `constructor` (a method of that name replaces the prototype's link to its class), and a prototype
 * whose `constructor` is not its class (another method named `constructor` replaced it).
 */
export function ownerOf(decorator: string, target: object, member: string | symbol, onParameter = false): ClassLike {
  if (typeof target === "function") {
    throw new ControllerError(
      "STATIC_METHOD",
      nameOf(target),
      String(member),
      `${decorator} is on ${onParameter ? "a parameter of " : ""}a static method; routes are instance methods`,
    );
  }
  const owner: unknown = (target as { constructor?: unknown }).constructor;
  const intact = typeof owner === "function" && (owner as { prototype?: unknown }).prototype === target;
  if (member === "constructor") {
    throw new ControllerError(
      "RESERVED_METHOD",
      intact ? nameOf(owner as ClassLike) : "(a class)",
      "constructor",
      `${decorator} is on a method named "constructor", which replaces the prototype's link to its class; give the method another name`,
    );
  }
  if (!intact) {
    throw new ControllerError(
      "RESERVED_METHOD",
      "(a class)",
      String(member),
      `${decorator}: the class's prototype.constructor is not the class — a method named "constructor" ` +
        `(["constructor"]() { … }) replaced it, so no decorator can find the class; give that method another name`,
    );
  }
  return owner as ClassLike;
}
