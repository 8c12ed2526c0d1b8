import type { HandlerResult, Reply, RouteMismatch } from "./reply.js";
import type { StreamBody } from "./reply-stream.js";
import type { SchemaInput, StandardSchema } from "./schema/standard.js";

/*
 * Response contracts for the type checker: a handler whose plain result cannot satisfy the schema its
 * route declares for status 200 is a type error, in `described(handler, { responses })` and under
 * `@Returns(200, schema)`. The types check what the run-time contract checks of a plain result: a
 * value that becomes a 200 JSON reply (`toReply`) is read, as JSON, by the schema declared for 200
 * (else `2XX`). They cannot see into a `Reply` (`json(v, { status: 201 })` carries no type of `v`), so
 * every other status, and any reply built by hand, is checked at run time only.
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

/** A class instance's type as JSON carries it: its methods dropped, members as JSON. */
export type JsonOf<T> = T extends { toJSON(...args: never): infer J }
  ? J
  : T extends readonly (infer E)[]
    ? JsonOf<E>[]
    : T extends object
      ? { [K in keyof T as T[K] extends Function ? never : K]: JsonOf<T[K]> }
      : T;

/**
 * The values whose JSON is a `T`: a `T`, or a value whose `toJSON` gives one (a `Date` where a string
 * is wanted), member by member.
 */
export type JsonInput<T> =
  | (T extends readonly (infer E)[]
      ? readonly JsonInput<E>[]
      : T extends object
        ? { [K in keyof T]: JsonInput<T[K]> }
        : T)
  | { toJSON(...args: never): T };

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

/** A result (or its promise) whose 200 JSON body is a `T`, as a method under `@Returns(200, …)` returns. */
export type ContractResult<T> = JsonInput<T> | NotJsonResult | Promise<JsonInput<T> | NotJsonResult>;

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
 * What a handler described by `info` may return (without its promise): anything when `info` declares
 * no schema that checks a 200 reply; otherwise a value whose JSON that schema accepts, or a result that
 * is no 200 JSON body (see {@link NotJsonResult}).
 */
export type HandlerResultFor<I> = I extends { readonly responses?: infer Rs }
  ? OkSchema<NonNullable<Rs>> extends infer S
    ? [S] extends [NoContract]
      ? HandlerResult
      : unknown extends ContractValue<S>
        ? HandlerResult
        : JsonInput<ContractValue<S>> | NotJsonResult
    : HandlerResult
  : HandlerResult;
