import type { ClassLike } from "./metadata.js";
import {
  adoptOwn,
  deferStep,
  isStandardContext,
  markStandard,
  standardMethod,
  type StandardContext,
} from "./standard.js";
import { ownerOf } from "./targets.js";

/*
 * `@Guard` and `@Use`: a decorator for a class or a method, under legacy or standard decorators, that
 * records a list of functions or classes, in the order written.
 */

/** How a decorator names itself and what it takes, for its errors. */
export interface Taking {
  /** `@Guard` */
  readonly decorator: string;
  /** What one argument is: `predicate or guard class`. */
  readonly one: string;
  /** What an argument must be: `a predicate or a guard class`. */
  readonly kind: string;
}

/**
 * The decorator that records `items` on the class, or on the one method it decorates (`method`
 * undefined for the class), through `record` (which puts each item in front: decorators apply bottom-up,
 * so the list reads in the order written). Throws a `TypeError` for no items, or one that is no function.
 */
export function classOrMethodDecorator<T>(
  taking: Taking,
  items: readonly T[],
  record: (owner: ClassLike, item: T, method: string | symbol | undefined) => void,
): (target: object, method?: unknown) => void {
  const { decorator: name } = taking;
  if (items.length === 0) throw new TypeError(`${name}: give at least one ${taking.one}`);
  items.forEach((item, i) => {
    if (typeof item !== "function")
      throw new TypeError(`${name}: argument ${i + 1} is ${item === null ? "null" : typeof item}, not ${taking.kind}`);
  });
  const recordAll = (owner: ClassLike, method: string | symbol | undefined): void => {
    for (const item of [...items].reverse()) record(owner, item, method);
  };
  return (target, method) => {
    if (isStandardContext(method)) {
      if (method.kind === "class") {
        // a class decorator runs after its members': their steps go first, as under legacy decorators
        markStandard(target as ClassLike);
        adoptOwn(target as ClassLike, method.metadata);
        recordAll(target as ClassLike, undefined);
        return;
      }
      const methodName = standardMethod(name, target, method as StandardContext);
      deferStep(target as Function, method as StandardContext, (owner) => recordAll(owner, methodName));
      return;
    }
    const owner: ClassLike =
      method === undefined ? (target as ClassLike) : ownerOf(name, target, method as string | symbol);
    recordAll(owner, method as string | symbol | undefined);
  };
}
