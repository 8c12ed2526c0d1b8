/**
 * `JSON.stringify` that writes a `bigint` as the exact JSON number it is (an `Int64` id stays
 * `9223372036854775807`), where plain `JSON.stringify` throws.
 */
export function stringifyJson(value: unknown): string {
  let sawBigInt = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== "bigint") return v;
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
