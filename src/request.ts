import type { MatchedRoute } from "./matched-route.js";
import {
  type BodyInput,
  type BodySource,
  DEFAULT_BODY_LIMIT,
  decodeText,
  NO_BODY,
  parseJson,
  readBody,
} from "./body.js";
import { parseCookies } from "./cookies/parse.js";
import type { Form } from "./forms/form.js";
import type { FormOptions } from "./forms/limits.js";
import { checkJsonContentType } from "./media-type.js";
import type { FormPart } from "./forms/part.js";
import type { FormBody, FormReader } from "./forms/read.js";
import type { HeaderRecord, RequestHeaders } from "./headers.js";
import { rawPathOf, splitPath } from "./segments.js";
import { utf8Encoder } from "./utf8.js";

/**
 * A request as a caller hands it to `pipeline()` or `interpret()` (a test, `inject`): headers as a
 * reader or a record, a body in any of its shapes. Adapters hand over an {@link AdapterInput}.
 */
export interface RequestInput {
  readonly method: string;
  /** The request target as sent: path and query (`/users/7?x=1`). */
  readonly url: string;
  /** A header reader (a Web `Headers` works), or header values by name. */
  readonly headers?: RequestHeaders | HeaderRecord;
  /** The body: text, bytes, a Web `ReadableStream`, an async iterable of chunks, or a {@link BodySource}. */
  readonly body?: BodyInput;
  /**
   * A body a framework has already read and parsed (Express's or Koa's `req.body`): `json()` returns it
   * and `text()` its text, instead of reading the (already consumed) stream again.
   */
  readonly parsedBody?: { readonly value: unknown };
  /** The adapter's native object (see each adapter's accessor). */
  readonly raw?: unknown;
  /** Which adapter made the request: what `raw` is. */
  readonly adapter?: string;
}

/**
 * A request as an adapter hands it to the pipeline (`pipelineWith`): its headers a reader and its body
 * a source already. `pipeline()` and `interpret()` make one of any {@link RequestInput} (`adapterInput`),
 * so the code that reads header records and the other body shapes is not in an edge bundle.
 */
export interface AdapterInput extends RequestInput {
  readonly headers: RequestHeaders;
  readonly body?: BodySource | undefined;
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
  /** The request headers, read case-insensitively: `req.headers.get("content-type")`. */
  readonly headers: RequestHeaders;
  /**
   * The request's cookies by name (case-sensitive), from its `Cookie` header, parsed on first use:
   * `req.cookies.get("theme")`. The first of duplicate names wins, quoted values lose their quotes, and
   * values are **not** percent-decoded (see `parseCookies`). A `Map`, so any name is safe. To read one
   * with a parser and a 400 when it is bad, use `cookieParam` (or `signedCookieParam`).
   */
  readonly cookies: ReadonlyMap<string, string>;
  /** Captured path variables by label; nothing is inherited, so any label is safe. */
  readonly vars: Readonly<V>;
  /**
   * The route that answers: set for its handler, for a middleware once `next()` resolved to a reply,
   * and for `onError`; `undefined` while no route has answered (a middleware before `next()`, a 404).
   */
  readonly route: MatchedRoute | undefined;
  /**
   * The adapter's native request: `IncomingMessage` (node), `Request` (fetch), Express's `req`, Koa's
   * `ctx`; the request object itself under `inject`/`interpret`. Each adapter exports a typed accessor.
   */
  readonly raw: unknown;
  /** Which adapter made the request (`"node"`, `"fetch"`, `"express"`, `"koa"`, `"inject"`). */
  readonly adapter: string;
  /** The whole body as bytes. Over the body limit: an `HttpError` 413. */
  bytes(): Promise<Uint8Array>;
  /** The whole body as UTF-8 text (invalid bytes become U+FFFD). Over the body limit: 413. */
  text(): Promise<string>;
  /**
   * The whole body parsed as JSON. Its content-type must say JSON (`application/json`, a `+json` type),
   * or `text/plain` (what `fetch` gives a string body), or be missing; any other (a form, bytes) is an
   * `HttpError` 415, unless `options.accept` says otherwise. Malformed or empty JSON: 400; over the
   * limit: 413.
   */
  json<T = unknown>(options?: JsonOptions): Promise<T>;
  /** The body as a stream, not limited and not buffered (for uploads a handler pipes elsewhere). */
  stream(): ReadableStream<Uint8Array>;
  /**
   * The whole form: a `multipart/form-data` or `application/x-www-form-urlencoded` body's text fields
   * and files (each file's content read into memory), within `options.limits` (see `FormLimits`; the
   * whole body within `bodyLimit` unless `totalBytes` says otherwise). Another content type: 415; over a
   * limit: 413; a malformed body: 400. Read fields with `formField` (a path parser, a 400 for a bad
   * value) and files with `formFile`. The first call's options hold; later calls give the same form.
   */
  form(options?: FormOptions): Promise<Form>;
  /**
   * The parts of a form body one by one, in order, as they arrive: `for await (const part of
   * req.parts())`. A field is a `FormField` (its text); a file is a `FormFile` whose content streams
   * from the request as it is read (`part.stream()`), never held whole unless asked (`bytes()`,
   * `text()`). Asking for the next part skips what is left of a file; leaving the loop early (`break`,
   * `return`, a throw) leaves the rest of the body unread. Limits, 415 and 400 as for {@link form}; a
   * limit passed while a file is read errors its stream with the 413. The body is read once: by
   * `parts()`, `form()`, `bytes()`/`text()`/`json()` or `stream()`.
   */
  parts(options?: FormOptions): AsyncIterableIterator<FormPart>;
}

/** Options of `json()`. */
export interface JsonOptions {
  /**
   * Which content types `json()` reads (a request without one is always read):
   * - `"json-or-text"` (the default): JSON types and `text/plain`;
   * - `"json"`: JSON types only, so no cross-site HTML form (which may send `text/plain` without a
   *   preflight) is taken for JSON;
   * - `"any"`: whatever the content-type says.
   */
  readonly accept?: JsonAccept;
}

/** The content types `json()` reads: see {@link JsonOptions.accept}. */
export type JsonAccept = "json" | "json-or-text" | "any";

/** The variables of a request no route has claimed yet (see `src/vars.ts`). */
export { NO_VARS } from "./vars.js";
import { NO_VARS } from "./vars.js";

/** How bodies are read: the pipeline's limit and form reader. */
export interface BodySettings {
  readonly bodyLimit: number;
  /** What reads `req.form()` and `req.parts()`: the pipeline's `forms` option. */
  readonly forms?: FormReader | undefined;
}

const DEFAULT_SETTINGS: BodySettings = { bodyLimit: DEFAULT_BODY_LIMIT };

/**
 * One incoming request, parsed once, shared by every route tried for it. It is also the request the
 * first guard or handler receives (one object per request instead of two); later ones get a view of
 * their own, so a handler that passed keeps seeing its own variables.
 */
export class RequestContext implements RoutedRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly raw: unknown;
  readonly adapter: string;
  vars: Readonly<Record<string, unknown>> = NO_VARS;
  /** The route whose handler runs or answered last (see {@link RoutedRequest.route}); dispatchers set it. */
  route: MatchedRoute | undefined = undefined;
  private consumed = 0;
  private claimed = false;
  private decoded: readonly string[] | undefined;
  private parsedQuery: URLSearchParams | undefined;
  private parsedCookies: ReadonlyMap<string, string> | undefined;
  private bodyBytes: Promise<Uint8Array> | undefined;
  private bodyTaken = false;
  private wholeForm: Promise<Form> | undefined;

  constructor(
    private readonly input: AdapterInput,
    private readonly settings: BodySettings = DEFAULT_SETTINGS,
  ) {
    this.method = input.method;
    this.url = input.url;
    this.path = rawPathOf(input.url);
    this.raw = input.raw ?? input;
    this.adapter = input.adapter ?? "direct";
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

  /** The adapter's header reader. */
  get headers(): RequestHeaders {
    return this.input.headers;
  }

  /** The cookies, parsed on first use. */
  get cookies(): ReadonlyMap<string, string> {
    this.parsedCookies ??= parseCookies(this.headers.get("cookie"));
    return this.parsedCookies;
  }

  /** The body bytes, read once, within the body limit. */
  bytes(): Promise<Uint8Array> {
    this.bodyBytes ??= this.readBytes();
    return this.bodyBytes;
  }

  /** The read behind `bytes()`; a body already taken (`stream()`) is a rejection, as every failure here. */
  private readBytes(): Promise<Uint8Array> {
    try {
      const parsed = this.input.parsedBody;
      if (parsed !== undefined) return Promise.resolve(bytesOfParsed(parsed.value));
      return readBody(this.takeSource(), this.settings.bodyLimit, this.headers.get("content-length"));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  // text() and json() chain on bytes() with module-level functions, not as async functions: an async
  // frame and its await cost ~0.5 KB of garbage per JSON POST on Node, a `then` ~0.1 KB
  text(): Promise<string> {
    const parsed = this.input.parsedBody;
    if (parsed !== undefined && typeof parsed.value === "string") return Promise.resolve(parsed.value);
    return this.bytes().then(decodeText);
  }

  json<T>(options?: JsonOptions): Promise<T> {
    try {
      checkJsonContentType(this.headers.get("content-type"), options?.accept);
    } catch (error) {
      return Promise.reject(error);
    }
    const parsed = this.input.parsedBody;
    // the bytes read here, not through text(): one step less per JSON body (on Bun ~0.6 µs of a ~3.6 µs
    // POST; on Node ~11 % of a POST's instructions in the pipeline)
    if (parsed === undefined) return this.bytes().then(jsonOfBytes) as Promise<T>;
    if (!isRawBody(parsed.value)) return Promise.resolve(parsed.value as T);
    return this.text().then(parseJson) as Promise<T>;
  }

  form(options?: FormOptions): Promise<Form> {
    this.wholeForm ??= this.formReader("req.form()").form(this.formBody(), options);
    return this.wholeForm;
  }

  parts(options?: FormOptions): AsyncIterableIterator<FormPart> {
    return this.formReader("req.parts()").parts(this.formBody(), options);
  }

  /** The pipeline's form reader; none (the edge adapter's default): a `TypeError` naming the option. */
  private formReader(call: string): FormReader {
    const reader = this.settings.forms;
    if (reader === undefined)
      throw new TypeError(
        `${call} needs the form reader: toFetch(tree, { forms: formReader }) from "switchyard-router/edge", formReader from "switchyard-router"`,
      );
    return reader;
  }

  /** The body as the form readers take it. */
  private formBody(): FormBody {
    return {
      contentType: this.headers.get("content-type"),
      contentLength: this.headers.get("content-length"),
      bodyLimit: this.settings.bodyLimit,
      parsed: this.input.parsedBody,
      take: () => this.takeSource(),
    };
  }

  stream(): ReadableStream<Uint8Array> {
    const source = this.takeSource();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const chunk = await source.read();
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
      cancel: () => source.stop(),
    });
  }

  /** The body source; a body is read once, by one of `bytes()`/`text()`/`json()` or `stream()`. */
  private takeSource(): BodySource {
    if (this.bodyTaken)
      throw new TypeError(
        "the request body was already read (bytes(), text() and json() share one read; stream() takes it whole)",
      );
    this.bodyTaken = true;
    return this.input.body ?? NO_BODY;
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

/** Body bytes parsed as JSON (see `parseJson`). */
function jsonOfBytes(bytes: Uint8Array): unknown {
  return parseJson(decodeText(bytes));
}

/** A framework's parsed body that is still raw text or bytes (e.g. from `express.text()`/`raw()`). */
function isRawBody(value: unknown): value is string | Uint8Array {
  return typeof value === "string" || value instanceof Uint8Array;
}

function bytesOfParsed(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return utf8Encoder.encode(typeof value === "string" ? value : JSON.stringify(value));
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
  get route(): MatchedRoute | undefined {
    return this.context.route;
  }
  get query(): URLSearchParams {
    return this.context.query;
  }
  get headers(): RequestHeaders {
    return this.context.headers;
  }
  get cookies(): ReadonlyMap<string, string> {
    return this.context.cookies;
  }
  get raw(): unknown {
    return this.context.raw;
  }
  get adapter(): string {
    return this.context.adapter;
  }
  bytes(): Promise<Uint8Array> {
    return this.context.bytes();
  }
  text(): Promise<string> {
    return this.context.text();
  }
  json<T>(options?: JsonOptions): Promise<T> {
    return this.context.json<T>(options);
  }
  stream(): ReadableStream<Uint8Array> {
    return this.context.stream();
  }
  form(options?: FormOptions): Promise<Form> {
    return this.context.form(options);
  }
  parts(options?: FormOptions): AsyncIterableIterator<FormPart> {
    return this.context.parts(options);
  }
}
