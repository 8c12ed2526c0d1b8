// Types of the shared behaviour table (behaviour.cjs), for the TypeScript tests that run it.
import type * as Library from "../../src/index.js";

/** A request of the table. */
export interface TableRequest {
  /** GET unless given. */
  readonly method?: string;
  /** Path and query. */
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Send the body as a stream (chunked, no content-length) where the client can. */
  readonly streamed?: true;
}

/** One request and the reply every adapter must give to it. */
export interface TableCase {
  readonly name: string;
  readonly request: TableRequest;
  readonly status: number;
  /** Headers that must be there with these values (repeated values joined with ", "). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Header names that must not be there. */
  readonly absent?: readonly string[];
  /** The set-cookie values, in order. */
  readonly setCookie?: readonly string[];
  /** The whole body as UTF-8 text. */
  readonly text?: string;
  /** The body, parsed as JSON. */
  readonly json?: unknown;
  readonly bytes?: Uint8Array;
  /** A JSON body whose `error` field matches. */
  readonly errorMatching?: RegExp;
  /** The body fails after the headers: the server cut the connection. */
  readonly cut?: true;
}

export declare const BODY_LIMIT: number;
export declare const cases: readonly TableCase[];
export declare function createApp(lib: typeof Library): Library.Route;
export declare function createOptions(lib: typeof Library): Library.PipelineOptions;
