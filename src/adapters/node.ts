import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { compile } from "../dispatch/compile/index.js";
import type { Dispatch, DispatcherFactory } from "../dispatch/dispatcher.js";
import { type Reply, reply, text } from "../reply.js";
import { RequestContext, type RequestInput } from "../request.js";
import type { Route } from "../tree.js";
import { standInMessage } from "./stand-in.js";

/** Options of {@link toApplication} and {@link inject}. */
export interface ApplicationOptions {
  /**
   * Told of every error a handler or guard throws (the client gets a 500). Defaults to `console.error`.
   */
  readonly onError?: (error: unknown, request: { readonly method: string; readonly url: string }) => void;
  /**
   * How the tree is turned into a dispatcher: {@link compile} unless given (`interpreter` gives the
   * reference semantics, at a cost per route).
   */
  readonly dispatcher?: DispatcherFactory;
}

// The answers that do not come from a handler.
const NOT_FOUND = reply({ status: 404 });
const INTERNAL_ERROR = text("Internal Server Error", { status: 500 });

/**
 * A request pipeline: request in, reply out, never rejecting. No match is a 404 with an empty body;
 * a throwing or rejecting handler is a 500, reported to `onError`.
 */
export function pipeline(tree: Route, options: ApplicationOptions = {}): (request: RequestContext) => Promise<Reply> | Reply {
  const dispatch: Dispatch = options.dispatcher?.(tree) ?? compile(tree).dispatch;
  const report = reporter(options);
  const failed = (error: unknown, request: RequestContext): Reply => {
    report(error, request);
    return INTERNAL_ERROR;
  };
  return (request) => {
    try {
      const outcome = dispatch(request);
      if (outcome instanceof Promise) {
        return outcome.then((reply) => reply ?? NOT_FOUND, (error: unknown) => failed(error, request));
      }
      return outcome ?? NOT_FOUND;
    } catch (error) {
      return failed(error, request);
    }
  };
}

/** `options.onError` (or `console.error`), made safe to call: a reporter that throws is ignored. */
function reporter(options: ApplicationOptions): (error: unknown, request: { readonly method: string; readonly url: string }) => void {
  const onError = options.onError ?? defaultOnError;
  return (error, request) => {
    try {
      onError(error, request);
    } catch {
      // an error reporter that throws must not take the server down
    }
  };
}

function defaultOnError(error: unknown, request: { readonly method: string; readonly url: string }): void {
  console.error(`switchyard: ${request.method} ${request.url} failed:`, error);
}

/**
 * Turns a route tree into a `node:http` request listener (also fits `https` and the `http2`
 * compatibility API): `http.createServer(toApplication(tree)).listen(3000)`.
 */
export function toApplication(tree: Route, options: ApplicationOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const handle = pipeline(tree, options);
  const report = reporter(options);
  const deliver = (request: RequestContext, res: ServerResponse, reply: Reply): void => {
    try {
      write(res, reply);
    } catch (error) {
      // e.g. a hand-made reply whose body node:http refuses: a 500 or a cut connection, never a hang
      report(error, request);
      if (res.headersSent) res.destroy();
      else res.writeHead(500).end();
    }
  };
  return (req, res) => {
    const input: RequestInput = { method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, raw: req };
    const request = new RequestContext(input, standInMessage);
    const reply = handle(request);
    if (reply instanceof Promise) reply.then((r) => deliver(request, res, r));
    else deliver(request, res, reply);
  };
}

function write(res: ServerResponse, reply: Reply): void {
  if (res.headersSent || res.destroyed) return;
  res.statusCode = reply.status;
  const headers = reply.headers;
  for (const name in headers) res.setHeader(name, headers[name]!);
  const body = reply.body;
  if (body instanceof Readable) {
    body.on("error", () => res.destroy());
    body.pipe(res);
  } else if (body === null) {
    res.end();
  } else {
    res.end(body);
  }
}
