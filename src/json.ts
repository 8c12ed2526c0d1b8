import { processGlobal } from "./process-global.js";

/*
 * Class instances in a JSON reply: when `switchyard-router/decorators` is loaded it registers
 * class-transformer's `instanceToPlain` here (the core never loads class-transformer itself), and every
 * instance of a user's class met while writing JSON goes through it, so `@Exclude()`/`@Expose()` are
 * honoured (a returned `User` with an `@Exclude() passwordHash` never sends it). Plain objects, arrays
 * and built-ins (`Date`, `Map`, typed arrays, …) are written as `JSON.stringify` writes them.
 */
const plainer = processGlobal("instanceToPlain", () => ({
  toPlain: undefined as ((value: unknown) => unknown) | undefined,
}));

/**
 * Makes `toPlain` the function class instances go through in JSON replies (called by the decorators).
 * What is stored is `toPlain` behind the test of what counts as a user's class instance, so that the
 * writers below, which every app carries, do not carry the test.
 */
export function registerInstanceToPlain(toPlain: ((value: object) => unknown) | undefined): void {
  plainer.toPlain = toPlain === undefined ? undefined : (value) => instanceToPlainOf(value, toPlain);
}

/** `value` as class-transformer's `instanceToPlain` gives it when it is an instance of a user's class and one is registered. */
export function plainOf(value: unknown): unknown {
  const toPlain = plainer.toPlain;
  return toPlain === undefined ? value : toPlain(value);
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
  // plain data (most replies, every error body) is written by JSON.stringify alone: a replacer costs a
  // call per value and turns off V8's fast serializer (2.3× the time), and it would change nothing here
  const plain =
    typeof value === "object" && value !== null
      ? INHERITED.toJSON === undefined && isPlainJson(value, 0)
      : typeof value !== "bigint";
  const text = plain ? JSON.stringify(value) : stringifyWithHooks(value);
  // JSON.stringify(undefined) is undefined: a reply of `json(undefined)` is the JSON `null`
  return text === undefined ? "null" : text;
}

/** The careful writer: every value through the replacer (bigints, class instances, `toJSON`, cycles). */
function stringifyWithHooks(value: unknown): string | undefined {
  let sawBigInt = false;
  const toPlain = plainer.toPlain;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== "bigint") return toPlain === undefined ? v : toPlain(v);
    sawBigInt = true;
    return `${BIGINT_MARK}${v.toString()}`;
  });
  return sawBigInt && text !== undefined ? text.replace(BIGINT_STRING, "$1") : text;
}

/** Deeper than this, or a cycle, the careful writer decides (and a cycle throws there, as it always did). */
const PLAIN_DEPTH = 32;

/** What every plain object inherits: a `toJSON` put there would apply to them all. */
const INHERITED = Object.prototype as { toJSON?: unknown };

/**
 * Whether the replacer would hand back every value inside `value` unchanged, so plain `JSON.stringify`
 * writes the same text: no bigint, and no object but arrays and plain objects (prototype
 * `Object.prototype` or `null`) without a `toJSON` — a class instance, a `Date`, a `Map` go the careful
 * way. Written for speed (it runs on every JSON reply): primitives are checked in the loop, not by a
 * call each, and a plain object's `toJSON` is looked for among the keys the loop reads anyway (one
 * defined non-enumerable on a plain object is not seen). A getter is read here and again by
 * `JSON.stringify`.
 */
function isPlainJson(value: object, depth: number): boolean {
  if (depth === PLAIN_DEPTH) return false;
  if (Array.isArray(value)) {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
    for (let i = 0; i < value.length; i++) if (!isPlainValue(value[i], depth)) return false;
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value)
    if (key === "toJSON" || !isPlainValue((value as Record<string, unknown>)[key], depth)) return false;
  return true;
}

/** A value inside a plain object or array at `depth`: see {@link isPlainJson}. */
function isPlainValue(v: unknown, depth: number): boolean {
  return typeof v === "object" ? v === null || isPlainJson(v, depth + 1) : typeof v !== "bigint";
}

// A marker no user string can hold by accident: a NUL and a per-process random tag (NUL is escaped as
// \u0000 in JSON text, which is what the pattern looks for).
const BIGINT_TAG = `bigint-${Math.random().toString(36).slice(2)}:`;
const BIGINT_MARK = `\u0000${BIGINT_TAG}`;
const BIGINT_STRING = new RegExp(`"\\\\u0000${BIGINT_TAG}(-?\\d+)"`, "g");
