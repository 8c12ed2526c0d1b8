import { ControllerError } from "./errors.js";
import { type ClassLike, nameOf } from "./metadata.js";
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
 * The shapes of decorators, under legacy and standard decorators alike: `@Guard` and `@Use` (a class
 * or a method, recording a list of functions or classes in the order written), `@Route` and `@Handle`
 * (a method only).
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

/**
 * A decorator for a method only (`@Route`, `@Handle`), under legacy or standard decorators: `record`
 * runs with the class and the method's name. On an accessor or a property it is a `NOT_A_METHOD`
 * `ControllerError` naming the decorator.
 */
export function methodDecorator(
  name: string,
  record: (owner: ClassLike, method: string | symbol) => void,
): (target: unknown, method: unknown, descriptor?: PropertyDescriptor) => void {
  return (target, method, descriptor) => {
    if (isStandardContext(method)) {
      const methodName = standardMethod(name, target, method as StandardContext);
      deferStep(target as Function, method as StandardContext, (owner) => record(owner, methodName));
      return;
    }
    const owner = ownerOf(name, target as object, method as string | symbol);
    if (typeof descriptor?.value !== "function") {
      throw new ControllerError(
        "NOT_A_METHOD",
        nameOf(owner),
        String(method),
        `${name} is on an accessor or property; it belongs on a method`,
      );
    }
    record(owner, method as string | symbol);
  };
}
