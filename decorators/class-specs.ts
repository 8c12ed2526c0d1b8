import type { ControllerErrorCode } from "./errors.js";
import { ControllerError } from "./errors.js";
import { type ClassLike, nameOf } from "./metadata.js";

/*
 * `@Guard` and `@Use` take a function or a class whose instances the controllers' resolver builds
 * (`canActivate`, `intercept`); both are told apart, and checked, the same way.
 */

/** True when `spec` is a class whose instances have the method `member`. */
export function isClassWith(spec: unknown, member: string): boolean {
  if (typeof spec !== "function") return false;
  const prototype: unknown = (spec as { prototype?: unknown }).prototype;
  return (
    typeof prototype === "object" &&
    prototype !== null &&
    typeof (prototype as Record<string, unknown>)[member] === "function"
  );
}

/** What a `@Guard`/`@Use` argument must be, for {@link checkSpec}'s message. */
export interface SpecKind {
  /** `@Guard` */
  readonly decorator: string;
  /** The method a class must have, with its parameters: `canActivate(request)`. */
  readonly member: string;
  readonly parameters: string;
  /** `a guard` */
  readonly noun: string;
  readonly code: ControllerErrorCode;
  /** What a function must be: `a predicate (request) => boolean`. */
  readonly fn: string;
}

/** Throws unless `spec` is a function that is no class, or a class with the kind's method. */
export function checkSpec(cls: ClassLike, method: string | symbol | undefined, spec: unknown, kind: SpecKind): void {
  if (isClassWith(spec, kind.member)) return;
  const isClass = typeof spec === "function" && /^class[\s{]/.test(Function.prototype.toString.call(spec));
  if (typeof spec !== "function" || isClass) {
    const name = typeof spec === "function" ? spec.name || "(anonymous)" : typeof spec;
    throw new ControllerError(
      kind.code,
      nameOf(cls),
      method === undefined ? undefined : String(method),
      `${kind.decorator}(${name}) is ${isClass ? `a class without ${kind.member}(${kind.parameters})` : "not a function"}; ` +
        `${kind.noun} is ${kind.fn} or a class with ${kind.member}`,
    );
  }
}
