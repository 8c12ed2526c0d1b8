import { isClassWith } from "./class-specs.js";
import { recordGuard, type ClassLike, type GuardSpec } from "./metadata.js";
import {
  adoptOwn,
  deferStep,
  isStandardContext,
  markStandard,
  standardMethod,
  type StandardContext,
} from "./standard.js";
import { ownerOf } from "./targets.js";

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
  if (guards.length === 0) throw new TypeError("@Guard: give at least one predicate or guard class");
  guards.forEach((g, i) => {
    if (typeof g !== "function")
      throw new TypeError(
        `@Guard: argument ${i + 1} is ${g === null ? "null" : typeof g}, not a predicate or a guard class`,
      );
  });
  const record = (owner: ClassLike, method: string | symbol | undefined): void => {
    // recorded last-first: decorators apply bottom-up and recordGuard puts each in front
    for (const g of [...guards].reverse()) recordGuard(owner, { method, guard: g });
  };
  const decorator = (target: object, method?: unknown): void => {
    if (isStandardContext(method)) {
      if (method.kind === "class") {
        // a class decorator runs after its members': their steps go first, as under legacy decorators
        markStandard(target as ClassLike);
        adoptOwn(target as ClassLike, method.metadata);
        record(target as ClassLike, undefined);
        return;
      }
      const name = standardMethod("@Guard", target, method as StandardContext);
      deferStep(target as Function, method as StandardContext, (owner) => record(owner, name));
      return;
    }
    const owner: ClassLike =
      method === undefined ? (target as ClassLike) : ownerOf("@Guard", target, method as string | symbol);
    record(owner, method as string | symbol | undefined);
  };
  return decorator as GuardDecorator;
}

/** True for a guard class (a class whose instances have `canActivate`), false for a predicate. */
export function isGuardClass(
  guard: GuardSpec,
): guard is Extract<GuardSpec, abstract new (...args: never[]) => CanActivate> {
  return isClassWith(guard, "canActivate");
}
