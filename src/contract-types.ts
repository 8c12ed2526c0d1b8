import type { Reply, RouteMismatch } from "./reply.js";
import type { StreamBody } from "./reply-stream.js";
import type { SchemaInput, StandardSchema } from "./schema/standard.js";

/*
 * Response contracts for the type checker: a handler whose plain result cannot satisfy the schema its
 * route declares for status 200 is a type error, in `described(handler, { responses })` and under
 * `@Returns(200, schema)`. The types check what the run-time contract checks of a plain result: a
 * value that becomes a 200 JSON reply (`toReply`) is read by the schema declared for 200 (else `2XX`).
 * They cannot see into a `Reply` (`json(v, { status: 201 })` carries no type of `v`), so every other
 * status, and any reply built by hand, is checked at run time only.
 */

/**
 * The values a contract's schema accepts: a Standard Schema's input type, a DTO class's instances as
 * JSON (structurally: a plain object with its properties will do), `[schema]` an array of those;
 * `unknown` for a JSON Schema object, which documents a reply but checks none.
 */
export type ContractValue<S> = S extends StandardSchema
  ? SchemaInput<S>
  : S extends readonly [infer E]
    ? ContractValue<E>[]
    : S extends abstract new (
          ...args: never
        ) => infer T
      ? JsonOf<T>
      : unknown;

/**
 * A value's type as the contract sees it, after `JSON.stringify` and `JSON.parse`: what `toJSON` gives
 * (a `Date`, a `Day` → `string`), arrays and objects member by member, methods dropped. (A class's
 * private fields are sent too, but the type system cannot see them.)
 */
export type JsonOf<T> = T extends { toJSON(...args: never): infer J }
  ? J
  : T extends readonly (infer E)[]
    ? JsonOf<E>[]
    : T extends object
      ? { [K in keyof T as T[K] extends Function ? never : K]: JsonOf<T[K]> }
      : T;

/**
 * What a handler's result is besides a 200 JSON body: a reply made by hand, the mismatch signal, text
 * (a `text/plain` reply), bytes or a stream, or nothing (a 204). The contract's types leave these alone.
 */
export type NotJsonResult =
  | Reply
  | RouteMismatch
  | string
  | Uint8Array
  | StreamBody
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: a handler typed `() => void` answers 204, not JSON
  | void;

/** The part of a handler's result `R` that is sent as a 200 JSON body, as JSON. */
export type JsonResult<R> = JsonOf<Exclude<Awaited<R>, NotJsonResult>>;

/** A handler result (or its promise) whose 200 JSON body is a `T`. */
export type ContractResult<T> = T | NotJsonResult | Promise<T | NotJsonResult>;

declare const noContract: unique symbol;
/** No schema declared for 200 (nor for `2XX`). */
type NoContract = typeof noContract;

/** The schema `responses` declares for a plain result: 200's, else `2XX`'s. */
export type OkSchema<Rs> = Rs extends { readonly 200: { readonly schema: infer S } }
  ? S
  : Rs extends { readonly "2XX": { readonly schema: infer S } }
    ? S
    : NoContract;

/**
 * `unknown` when a handler returning `R` satisfies the 200 contract of `info` (or it declares none);
 * otherwise an object type whose one property says so, which the info object lacks: the compiler names
 * the property in its error ("Property 'the handler's 200 result does not match its contract' is
 * missing …"), and its type shows what the handler returns and what the contract accepts.
 */
export type ContractChecked<R, I> = I extends { readonly responses?: infer Rs }
  ? OkSchema<NonNullable<Rs>> extends infer S
    ? [S] extends [NoContract]
      ? unknown
      : [JsonResult<R>] extends [ContractValue<S>]
        ? unknown
        : ContractBroken<JsonResult<R>, ContractValue<S>>
    : unknown
  : unknown;

/** The error a broken contract becomes (see {@link ContractChecked}). */
export interface ContractBroken<Returned, Accepted> {
  readonly "the handler's 200 result does not match its contract": {
    readonly returns: Returned;
    readonly contractAccepts: Accepted;
  };
}
