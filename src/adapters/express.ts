import type { IncomingMessage, ServerResponse } from "node:http";
import { type FrameworkOptions, frameworkPipeline } from "../pipeline.js";
import type { RoutedRequest } from "../request.js";
import type { Route } from "../tree.js";
import { nodeInput } from "./node-input.js";

export type { FrameworkOptions } from "../pipeline.js";
import { sendReply } from "./node-write.js";

/** The parts of Express's request this adapter reads (Express 4 and 5 requests have them). */
export interface ExpressRequest extends IncomingMessage {
  /** Set by a body parser (`express.json()`, `express.text()`, …) when one has read the body. */
  body?: unknown;
}

/** An Express middleware function. */
export type ExpressMiddleware = (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Turns a route tree into Express middleware: `app.use(toExpress(tree))`, or `app.use("/api",
 * toExpress(tree))` (routes then see the path below the mount point, as Express gives it). A route that
 * answers sends its reply; when none matches, `next()` lets the later Express routes answer. A body an
 * Express body parser already read is what `req.json()`/`req.text()` return. A client error (an
 * `HttpError` below 500: a bad query parameter or cookie, an invalid body, a 413, a guard's 401) is
 * answered here with its status and JSON body, as on every other adapter, so Express's HTML error page
 * never sees it (`clientErrors: "framework"` hands it on instead); other errors go to Express's error
 * handlers (`next(err)`; an `HttpError` carries `status` and `expose`, as they expect). With `onError`
 * given, `onError` decides for every error. Handlers reach Express's `req` with {@link expressRequest}.
 */
export function toExpress(tree: Route, options: FrameworkOptions = {}): ExpressMiddleware {
  const handle = frameworkPipeline(tree, options);
  return (req, res, next) => {
    const input = nodeInput(req, "express", req, req.body);
    let outcome: ReturnType<typeof handle>;
    try {
      outcome = handle(input);
    } catch (error) {
      next(error);
      return;
    }
    Promise.resolve(outcome).then(
      (reply) => (reply === null ? next() : sendReply(res, reply, options)),
      (error: unknown) => next(error),
    );
  };
}

/** Express's `req` behind a request served by {@link toExpress}; a `TypeError` for another adapter's. */
export function expressRequest(request: RoutedRequest<object>): ExpressRequest {
  if (request.adapter !== "express")
    throw new TypeError(`expressRequest: this request came through the "${request.adapter}" adapter, not Express`);
  return request.raw as ExpressRequest;
}
