import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { readText } from "./body.js";
import { rawPathOf, splitPath } from "./segments.js";

/** What a dispatcher needs to know of a request. */
export interface RequestInput {
  readonly method: string;
  /** The request target as sent: path and query (`/users/7?x=1`). */
  readonly url: string;
  readonly headers?: IncomingHttpHeaders;
  /** The native request, when there is one. */
  readonly raw?: IncomingMessage;
  /** Request body, for requests with no native request behind them (tests). */
  readonly body?: string | Uint8Array;
}

/** The request a handler (or guard) receives. */
export interface RoutedRequest<V extends object = Record<string, unknown>> {
  /** As sent, e.g. `GET`. */
  readonly method: string;
  /** The request target as sent, query included. */
  readonly url: string;
  /** The raw (still percent-encoded) path: `url` before the first `?`. */
  readonly path: string;
  /** All path segments, percent-decoded. */
  readonly segments: readonly string[];
  /** The segments no route part has consumed yet (what a `match` prefix leaves to its handler). */
  readonly rest: readonly string[];
  /** The query string, parsed. Routing ignores it. */
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  /** Captured path variables by label; a null-prototype object, so any label is safe. */
  readonly vars: Readonly<V>;
  /** The native `node:http` request (a stand-in one under `inject`/`interpret`). */
  readonly raw: IncomingMessage;
  /** Reads the whole body as UTF-8 text. */
  text(): Promise<string>;
  /** Reads the whole body and parses it as JSON. */
  json<T = unknown>(): Promise<T>;
}

const NO_HEADERS: IncomingHttpHeaders = Object.freeze({});
/** The variables of a request no route has claimed yet (see `src/vars.ts`). */
export { NO_VARS } from "./vars.js";
import { NO_VARS } from "./vars.js";

/**
 * One incoming request, parsed once, shared by every route tried for it. It is also the request the
 * first guard or handler receives (one object per request instead of two); later ones get a view of
 * their own, so a handler that passed keeps seeing its own variables.
 */
export class RequestContext implements RoutedRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  vars: Readonly<Record<string, unknown>> = NO_VARS;
  private consumed = 0;
  private claimed = false;
  private decoded: readonly string[] | undefined;
  private parsedQuery: URLSearchParams | undefined;
  private rawRequest: IncomingMessage | undefined;
  private bodyText: Promise<string> | undefined;

  constructor(
    private readonly input: RequestInput,
    private readonly makeRaw: (input: RequestInput) => IncomingMessage,
  ) {
    this.method = input.method;
    this.url = input.url;
    this.path = rawPathOf(input.url);
    this.headers = input.headers ?? input.raw?.headers ?? NO_HEADERS;
    this.rawRequest = input.raw;
  }

  /** The decoded path segments, split on first use (the compiled dispatcher reads `path` directly). */
  get segments(): readonly string[] {
    this.decoded ??= splitPath(this.path);
    return this.decoded;
  }

  get rest(): readonly string[] {
    return this.segments.slice(this.consumed);
  }

  /** The query, parsed on first use. */
  get query(): URLSearchParams {
    if (this.parsedQuery === undefined) {
      const q = this.url.indexOf("?");
      this.parsedQuery = new URLSearchParams(q === -1 ? "" : this.url.slice(q + 1));
    }
    return this.parsedQuery;
  }

  /** The native request, made up on first use when there is none. */
  get raw(): IncomingMessage {
    this.rawRequest ??= this.makeRaw(this.input);
    return this.rawRequest;
  }

  /** The body as text, read once. */
  text(): Promise<string> {
    this.bodyText ??= readText(this.raw);
    return this.bodyText;
  }

  async json<T>(): Promise<T> {
    return JSON.parse(await this.text()) as T;
  }

  /** The request as a guard or handler at segment `consumed` with `vars` sees it. */
  routed<V extends object>(vars: V, consumed: number): RoutedRequest<V> {
    if (this.claimed) return new Routed(this, vars, consumed);
    this.claimed = true;
    this.vars = vars as Record<string, unknown>;
    this.consumed = consumed;
    return this as RoutedRequest as RoutedRequest<V>;
  }
}

/** What a second (third, …) guard or handler of the same request receives. */
class Routed<V extends object> implements RoutedRequest<V> {
  constructor(
    private readonly context: RequestContext,
    readonly vars: V,
    private readonly consumed: number,
  ) {}
  get method(): string {
    return this.context.method;
  }
  get url(): string {
    return this.context.url;
  }
  get path(): string {
    return this.context.path;
  }
  get segments(): readonly string[] {
    return this.context.segments;
  }
  get rest(): readonly string[] {
    return this.context.segments.slice(this.consumed);
  }
  get query(): URLSearchParams {
    return this.context.query;
  }
  get headers(): IncomingHttpHeaders {
    return this.context.headers;
  }
  get raw(): IncomingMessage {
    return this.context.raw;
  }
  text(): Promise<string> {
    return this.context.text();
  }
  json<T>(): Promise<T> {
    return this.context.json<T>();
  }
}
