import type { RouteNode } from "../../src";
import { ControllerError, type ControllerErrorCode } from "../../decorators";

/**
 * The tree with every handler leaf replaced by a marker: shapes compare (guard predicates by
 * identity, parsers by identity), handler functions do not.
 */
export function shape(node: RouteNode): unknown {
  switch (node.kind) {
    case "handler":
      return { kind: "handler" };
    case "alt":
      return { kind: "alt", alternatives: node.alternatives.map(shape) };
    default:
      return { ...node, next: shape(node.next) };
  }
}

/** The error `build` throws; fails the test when it throws none. */
export function errorOf(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error, got none");
}

/** Expects `build` to throw a ControllerError with this code, naming this class (and method). */
export function expectControllerError(
  build: () => unknown,
  code: ControllerErrorCode,
  controller: string,
  methodName?: string,
): ControllerError {
  const error = errorOf(build);
  expect(error).toBeInstanceOf(ControllerError);
  const e = error as ControllerError;
  expect(e.code).toBe(code);
  expect(e.controller).toBe(controller);
  expect(e.method).toBe(methodName);
  expect(e.message.startsWith(methodName === undefined ? `${controller}: ` : `${controller}.${methodName}: `)).toBe(
    true,
  );
  return e;
}
