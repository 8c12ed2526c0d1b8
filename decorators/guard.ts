import { isClassWith } from "./class-specs.js";
import { recordGuard, type GuardSpec } from "./metadata.js";
import { classOrMethodDecorator } from "./class-or-method.js";

/** A guard class: built by the controllers' resolver, asked `canActivate(request)` per request. */
export interface CanActivate {
  /** `false` (or a promise of it) is a mismatch: the next route is tried. */
  canActivate(request: never): boolean | Promise<boolean>;
}

/** What `@Guard` returns: a decorator for a class or a method, under legacy or TC39 standard decorators. */
export interface GuardDecorator {
  /** TC39 standard decorators, on a class or a method. */
  (value: Function, context: ClassDecoratorContext | ClassMethodDecoratorContext): void;
  /** TypeScript's legacy decorators (`experimentalDecorators`), on a class or a method. */
  (target: object, method?: string | symbol, descriptor?: PropertyDescriptor): void;
}

/**
 * Class or method decorator: the decorator form of `guard(predicate, next)`. Each route of the class
 * (or the one method) becomes `route(pattern, guard(g₁, guard(g₂, … handler)))`, so a refused guard is
 * a mismatch and the next route is tried, exactly as with the functional `guard`. Guards run after the
 * route's method and path have matched: the class's guards first (a base class's before its
 * subclass's), then the method's, each list in the order written; `@Guard(a, b)` is `@Guard(a) @Guard(b)`.
 *
 * A guard is a predicate `(request) => boolean | Promise<boolean>`, or a class with
 * `canActivate(request)`, obtained through the same resolver as the controllers (so it can be
 * `@injectable()` and take services), once for singleton controllers and per request for
 * request-scoped ones.
 */
export function Guard(...guards: readonly GuardSpec[]): GuardDecorator {
  return classOrMethodDecorator(
    { decorator: "@Guard", one: "predicate or guard class", kind: "a predicate or a guard class" },
    guards,
    (owner, item, method) => recordGuard(owner, { method, guard: item }),
  ) as GuardDecorator;
}

/** True for a guard class (a class whose instances have `canActivate`), false for a predicate. */
export function isGuardClass(
  guard: GuardSpec,
): guard is Extract<GuardSpec, abstract new (...args: never[]) => CanActivate> {
  return isClassWith(guard, "canActivate");
}
