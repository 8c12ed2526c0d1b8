import { type BodySource, NO_BODY, streamSource } from "../body.js";
import {
  answerError,
  type BuiltOptions,
  INTERNAL_ERROR,
  pipelineWith,
  type PipelineOptions,
  reportSendError,
} from "../pipeline.js";
import type { Reply, ReplyHeaders } from "../reply.js";
import { discard, isBodiless, isStreamBody, webStreamOf } from "../reply-stream.js";
import type { RequestHeaders } from "../headers.js";
import type { AdapterInput, RoutedRequest } from "../request.js";
import type { Route } from "../tree.js";
import { utf8Encoder } from "../utf8.js";

/**
 * A Fetch-API request handler: what Bun, Deno, Cloudflare Workers and Node's `Request` speak. It
 * answers with a `Response` at once when the route answered synchronously (servers such as
 * `@hono/node-server` then write it without waiting a tick), else with a promise of one.
 */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/*
 * The Fetch adapter's machinery, shared by its two entries: `switchyard-router/fetch` (`fetch.ts`, the
 * full adapter: the compiled dispatcher and the form reader unless told) and `switchyard-router/edge`
 * (`edge.ts`: the interpreter, and forms only when given), each of which passes its tools as values.
 */

/**
 * The replies' shared default headers (`json()`'s, `text()`'s, …) each made once into a `Headers` that
 * every `Response` with them takes (see `fetch.ts`: on Bun).
 */
export type SharedHeaders = ReadonlyMap<ReplyHeaders, Headers>;

/**
 * A Fetch-API handler over `tree` with every tool given (see `pipelineWith`): the two `toFetch`s add
 * their defaults and call it. No match is a 404 with an empty body.
 */
export function fetchHandler(tree: Route, options: BuiltOptions, shared?: SharedHeaders): FetchHandler {
  const handle = pipelineWith(tree, options, answerError(options));
  return (request) => {
    const outcome = handle(new FetchInput(request));
    // most replies are ready at once: they go back as they are, with no promise and no tick
    return outcome instanceof Promise
      ? outcome.then((reply) => toResponse(reply, request, options, shared))
      : toResponse(outcome, request, options, shared);
  };
}

/**
 * A `Request` as the pipeline reads it. Headers and body are read on first use: on Node servers that
 * bridge to the Fetch API (such as `@hono/node-server`), touching them makes the bridge build a full
 * `Request`, which a GET that reads neither never needs.
 */
class FetchInput implements AdapterInput {
  readonly method: string;
  readonly url: string;
  readonly adapter = "fetch";

  constructor(readonly raw: Request) {
    this.method = raw.method;
    this.url = targetOf(raw.url);
  }

  get headers(): RequestHeaders {
    return this.raw.headers;
  }

  get body(): BodySource | undefined {
    // a declared length (no transfer coding) says there is a body, read whole, without asking for `body`,
    // which makes Bun build a ReadableStream `bytes()` then never uses (~0.85 µs of a ~4 µs JSON POST)
    const raw = this.raw;
    const headers = raw.headers;
    const declared = headers.get("content-length") !== null && headers.get("transfer-encoding") === null;
    return declared || raw.body !== null ? new RequestBody(raw, declared) : undefined;
  }
}

/** `Request.bytes()`, where the runtime has it (Bun, Deno, workerd, recent Node): not in Node 20's types. */
type WithBytes = Request & { bytes?: () => Promise<Uint8Array> };

/**
 * A `Request`'s body: read whole by the runtime's own `bytes()` when its length is declared and no
 * transfer coding is (a native read costs a fraction of pulling chunks through a JS reader; the server
 * has framed the body by that length, and `readBody` still counts the bytes, for a `Request` made in
 * process with a header that lies), else chunk by chunk from its stream, taken on first read.
 */
class RequestBody implements BodySource {
  private chunks: BodySource | undefined;

  /** `declared`: the length is declared and no transfer coding is (see `FetchInput.body`). */
  constructor(
    private readonly request: WithBytes,
    private readonly declared: boolean,
  ) {}

  whole(): Promise<Uint8Array> | undefined {
    if (!this.declared) return undefined;
    const request = this.request;
    // `bytes()` only on a runtime's own `Request` (Bun's `arrayBuffer()` costs twice as much); a
    // look-alike built on its prototype (@hono/node-server's lightweight request) has its own
    // `arrayBuffer()`, while the inherited `bytes()` fails on it
    return typeof request.bytes === "function" && Object.getPrototypeOf(request) === Request.prototype
      ? request.bytes()
      : request.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  }

  read(): Promise<Uint8Array | null> {
    this.chunks ??= this.request.body === null ? NO_BODY : streamSource(this.request.body);
    return this.chunks.read();
  }

  stop(): void {
    if (this.chunks !== undefined) this.chunks.stop();
    else this.request.body?.cancel().catch(() => undefined);
  }
}

/**
 * The request target (path and query) of an absolute URL. A fragment is no part of it: none comes over
 * the wire, but a `Request` made by hand (`new Request("http://x/page#top")`) keeps one in its `url`.
 */
function targetOf(url: string): string {
  const slash = url.indexOf("/", url.indexOf("://") + 3);
  if (slash === -1) return "/";
  const hash = url.indexOf("#", slash);
  return hash === -1 ? url.slice(slash) : url.slice(slash, hash);
}

function toResponse(
  reply: Reply | null,
  request: Request,
  options: PipelineOptions,
  shared: SharedHeaders | undefined,
): Response | Promise<Response> {
  if (reply === null) return new Response(null, { status: 404 });
  // a stream that failed before its first chunk, or a reply `Response` refuses (a status above 599)
  const failed = (error: unknown): Response => {
    reportSendError(options, error, { method: request.method, url: request.url });
    // a text reply: answered at once, never a promise
    return toResponse(INTERNAL_ERROR, request, options, shared) as Response;
  };
  try {
    const headers = shared?.get(reply.headers) ?? responseHeaders(reply.headers);
    const body = reply.body;
    if (isBodiless(reply.status) || request.method === "HEAD" || body === null) {
      discard(body);
      return new Response(null, { status: reply.status, headers });
    }
    if (isStreamBody(body)) {
      // a client that leaves cancels the body, also while the first chunk is awaited (an idle SSE stream)
      const streamed = webStreamOf(
        body,
        (error) => reportSendError(options, error, { method: request.method, url: request.url }),
        request.signal,
      );
      return streamed.then((stream) => new Response(stream, { status: reply.status, headers })).catch(failed);
    }
    // text without a content-type goes as bytes: given a string, `Response` would invent one
    const sent = typeof body === "string" && !("content-type" in reply.headers) ? utf8Encoder.encode(body) : body;
    return new Response(sent, { status: reply.status, headers });
  } catch (error) {
    return failed(error);
  }
}

/**
 * A reply's headers as `Response` takes them: a plain record when every header has one value (servers
 * such as `@hono/node-server` write one without converting it; a copy, since they add to it and a
 * reply's headers are frozen), a `Headers` when one repeats (`set-cookie`).
 */
function responseHeaders(replyHeaders: ReplyHeaders): Record<string, string> | Headers {
  let repeated = false;
  for (const name in replyHeaders) if (typeof replyHeaders[name] !== "string") repeated = true;
  if (!repeated) return { ...(replyHeaders as Record<string, string>) };
  const headers = new Headers();
  for (const name in replyHeaders) {
    const value = replyHeaders[name]!;
    if (typeof value === "string") headers.set(name, value);
    else for (const one of value) headers.append(name, one);
  }
  return headers;
}

/** The `Request` behind a request served by a Fetch handler (`toFetch`); a `TypeError` for another adapter's. */
export function fetchRequest(request: RoutedRequest<object>): Request {
  if (request.adapter !== "fetch")
    throw new TypeError(
      `fetchRequest: this request came through the "${request.adapter}" adapter, not the Fetch adapter`,
    );
  return request.raw as Request;
}
