import { ControllerError } from "./errors.js";
import { nameOf, recordParam, type ParamRecord } from "./metadata.js";

type ParamDecorator = (target: object, method: string | symbol | undefined, index: number) => void;

/**
 * Parameter decorator: the parameter receives the path variable `label`, as its pattern type parses
 * it (`id:Int` gives a `number`, `id:UserId` a `UserId`). The label must be one the route's pattern or
 * the class's `@Match` prefix captures. When TypeScript emits decorator metadata, the parameter's
 * declared type is checked against the pattern's type when `controllers()` runs (`id: string` for
 * `id:Int` is an error); the value itself always comes from the parser.
 */
export function PathVar(label: string): ParamDecorator {
  if (typeof label !== "string" || label === "") throw new TypeError("@PathVar: the label must be a non-empty string");
  return (target, method, index) => record(target, method, index, "@PathVar", { kind: "pathVar", label });
}

/**
 * Parameter decorator: the parameter receives the whole routed request (`RoutedRequest`): headers,
 * query, body readers, captured `vars`, the native request.
 */
export function Req(): ParamDecorator {
  return (target, method, index) => record(target, method, index, "@Req", { kind: "request" });
}

type ParamKind = { readonly kind: "pathVar"; readonly label: string } | { readonly kind: "request" };

function record(target: object, method: string | symbol | undefined, index: number, decorator: string, param: ParamKind): void {
  if (method === undefined) {
    throw new ControllerError("NOT_A_ROUTE", nameOf(target as () => void), "constructor",
      `${decorator} is on a constructor parameter; it belongs on a parameter of a @Route method`);
  }
  if (typeof target === "function") {
    throw new ControllerError("STATIC_METHOD", nameOf(target), String(method),
      `${decorator} is on a parameter of a static method; routes are instance methods`);
  }
  recordParam(target.constructor, { ...param, method, index } as ParamRecord);
}
