import type { IncomingMessage, ServerResponse } from "node:http";
import { type FrameworkOptions, frameworkPipeline, type PipelineOptions, reportSendError } from "../pipeline.js";
import type { Reply } from "../reply.js";
import { discard, isBodiless, isStreamBody, webStreamOf } from "../reply-stream.js";
import type { RoutedRequest } from "../request.js";
import type { Route } from "../tree.js";
import { nodeInput } from "./node-input.js";

export type { FrameworkOptions } from "../pipeline.js";

/** The parts of Koa's context this adapter reads and sets (Koa 2 and 3 contexts have them). */
export interface KoaContext {
  readonly method: string;
  readonly url: string;
  readonly req: IncomingMessage;
  /** Its `close` tells a streamed body that the client left. */
  readonly res: ServerResponse;
  /** `request.body` is set by a body parser (`@koa/bodyparser`, …) when one has read the body. */
  readonly request: { readonly body?: unknown };
  status: number;
  body: unknown;
  set(field: string, value: string | string[]): void;
  remove(field: string): void;
}

/** A Koa middleware function. */
export type KoaMiddleware = (ctx: KoaContext, next: () => Promise<unknown>) => Promise<void>;

/**
 * Turns a route tree into Koa middleware: `app.use(toKoa(tree))`. A route that answers sets
 * `ctx.status`, the headers and `ctx.body` (so upstream middleware can still see and change them);
 * when none matches, `await next()` lets the later middleware answer. A body a Koa body parser already
 * read is what `req.json()`/`req.text()` return. A client error (an `HttpError` below 500: a bad query
 * parameter or cookie, an invalid body, a 413, a guard's 401) is answered here with its status and JSON
 * body, as on every other adapter, so Koa's text error answer and its `error` event never see it
 * (`clientErrors: "framework"` throws it on instead); other errors are thrown on to Koa's error handling
 * (an `HttpError` carries `status`, `expose` and `headers`, as Koa expects). With `onError` given,
 * `onError` decides for every error. Handlers reach the context with {@link koaContext}.
 */
export function toKoa(tree: Route, options: FrameworkOptions = {}): KoaMiddleware {
  const handle = frameworkPipeline(tree, options);
  return async (ctx, next) => {
    const input = nodeInput(ctx.req, "koa", ctx, ctx.request.body);
    const reply = await handle(input);
    if (reply === null) {
      await next();
      return;
    }
    await answer(ctx, reply, options);
  };
}

async function answer(ctx: KoaContext, reply: Reply, options: PipelineOptions): Promise<void> {
  let body = reply.body;
  if (isStreamBody(body)) {
    if (isBodiless(reply.status) || ctx.method === "HEAD") {
      discard(body);
      body = null;
    } else {
      // the client leaving cancels the body at once (Koa's own destroy waits for the read in progress)
      const left = new AbortController();
      ctx.res.once("close", () => left.abort());
      try {
        // failing mid-way, the stream errors inside Koa, which reports that itself unless onError is given
        body = await webStreamOf(
          body,
          options.onError === undefined
            ? undefined
            : (error) => reportSendError(options, error, { method: ctx.method, url: ctx.url }),
          left.signal,
        );
      } catch (error) {
        // the stream failed before its first chunk: the status can still say so
        reportSendError(options, error, { method: ctx.method, url: ctx.url });
        ctx.status = 500;
        ctx.body = "Internal Server Error";
        return;
      }
    }
  }
  // Koa sends a Buffer as bytes (a plain Uint8Array it would write as JSON). The body goes first:
  // Koa turns a null body set after the status into a 204, whatever the reply's status was.
  ctx.body = body instanceof Uint8Array ? Buffer.from(body.buffer, body.byteOffset, body.byteLength) : body;
  // Koa gives a body without a type one of its own guessing; the other adapters send none
  if (!("content-type" in reply.headers)) ctx.remove("content-type");
  ctx.status = reply.status;
  for (const name in reply.headers) {
    const value = reply.headers[name]!;
    ctx.set(name, typeof value === "string" ? value : [...value]);
  }
}

/** Koa's context behind a request served by {@link toKoa}; a `TypeError` for another adapter's. */
export function koaContext(request: RoutedRequest<object>): KoaContext {
  if (request.adapter !== "koa")
    throw new TypeError(`koaContext: this request came through the "${request.adapter}" adapter, not Koa`);
  return request.raw as KoaContext;
}
