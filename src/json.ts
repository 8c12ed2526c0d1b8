import { processGlobal } from "./process-global.js";

/*
 * Class instances in a JSON reply: when `switchyard-router/decorators` is loaded it registers
 * class-transformer's `instanceToPlain` here (the core never loads class-transformer itself), and every
 * instance of a user's class met while writing JSON goes through it, so `@Exclude()`/`@Expose()` are
 * honoured (a returned `User` with an `@Exclude() passwordHash` never sends it). Plain objects, arrays
 * and built-ins (`Date`, `Map`, typed arrays, …) are written as `JSON.stringify` writes them.
 */
const plainer = processGlobal("instanceToPlain", () => ({
  toPlain: undefined as ((value: object) => unknown) | undefined,
}));

/** Makes `toPlain` the function class instances go through in JSON replies (called by the decorators). */
export function registerInstanceToPlain(toPlain: ((value: object) => unknown) | undefined): void {
  plainer.toPlain = toPlain;
}

/** `value` as class-transformer's `instanceToPlain` gives it when it is an instance of a user's class and one is registered. */
export function plainOf(value: unknown): unknown {
  const toPlain = plainer.toPlain;
  return toPlain === undefined ? value : instanceToPlainOf(value, toPlain);
}

function instanceToPlainOf(v: unknown, toPlain: (value: object) => unknown): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return v;
  if (v instanceof Date || v instanceof Map || v instanceof Set || ArrayBuffer.isView(v) || v instanceof RegExp)
    return v;
  return toPlain(v);
}

/**
 * `JSON.stringify` that writes a `bigint` as the exact JSON number it is (an `Int64` id stays
 * `9223372036854775807`), where plain `JSON.stringify` throws.
 */
export function stringifyJson(value: unknown): string {
  let sawBigInt = false;
  const toPlain = plainer.toPlain;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== "bigint") return toPlain === undefined ? v : instanceToPlainOf(v, toPlain);
    sawBigInt = true;
    return `${BIGINT_MARK}${v.toString()}`;
  });
  // JSON.stringify(undefined) is undefined: a reply of `json(undefined)` is the JSON `null`
  if (text === undefined) return "null";
  return sawBigInt ? text.replace(BIGINT_STRING, "$1") : text;
}

// A marker no user string can hold by accident: a NUL and a per-process random tag (NUL is escaped as
// \u0000 in JSON text, which is what the pattern looks for).
const BIGINT_TAG = `bigint-${Math.random().toString(36).slice(2)}:`;
const BIGINT_MARK = `\u0000${BIGINT_TAG}`;
const BIGINT_STRING = new RegExp(`"\\\\u0000${BIGINT_TAG}(-?\\d+)"`, "g");
