import type { Reply, RouteMismatch } from "../reply.js";

/* What a call resolves to, from what the handler returns: the value as the wire carries it. */

/**
 * What a value becomes once sent as JSON and parsed back: dates and other objects with `toJSON` as
 * what it returns, `bigint` a number (switchyard writes it as the exact JSON number), a function or
 * symbol property `never` (JSON leaves it out; the key is kept in the type, which is cheaper to check
 * than a filtered one: ~18,000 fewer instantiations for 500 routes).
 */
export type Jsonified<T> = T extends Special
  ? JsonifiedSpecial<T>
  : T extends object
    ? { [K in keyof T]: Jsonified<T[K]> }
    : T extends string | number | boolean | null
      ? T
      : unknown;

/** What {@link Jsonified} does not map key by key: told apart in one check, so a plain object costs two. */
type Special =
  | bigint
  | undefined
  | symbol
  | Date
  | ((...args: never[]) => unknown)
  | { toJSON(): unknown }
  | readonly unknown[];

type JsonifiedSpecial<T> = T extends bigint
  ? number
  : T extends undefined | ((...args: never[]) => unknown) | symbol
    ? never
    : T extends Date
      ? string
      : T extends { toJSON(): unknown }
        ? Jsonified<ReturnType<T["toJSON"]>>
        : T extends readonly unknown[]
          ? Jsonified<T[number]>[]
          : never;

/**
 * What a call resolves to for a handler that returns `R`: `undefined` for nothing (204), the string
 * for text, bytes for bytes, `unknown` for a hand-made reply (its body could be anything), the JSON
 * form of any other value; a `routeMismatch()` answers nothing, so it adds nothing.
 */
export type ResultOf<R> = R extends NotJson ? ResultOfNotJson<R> : Jsonified<R>;

/** The results {@link ResultOf} does not send as JSON: told apart in one check, so a plain value costs one. */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler typed `() => void` answers 204, nothing
type NotJson = RouteMismatch | Reply | undefined | void | string | Uint8Array;

type ResultOfNotJson<R> = R extends RouteMismatch
  ? never
  : R extends Reply
    ? unknown
    : // biome-ignore lint/suspicious/noConfusingVoidType: as above
      R extends undefined | void
      ? undefined
      : R extends string
        ? string
        : Uint8Array;

/** The result of a handler (or method) `H`, as a call resolves to it. */
export type CallResult<H> = H extends (...args: never[]) => infer R ? ResultOf<Awaited<R>> : unknown;
