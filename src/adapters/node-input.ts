import type { IncomingMessage } from "node:http";
import type { BodySource } from "../body.js";
import { headersOf } from "../headers.js";
import type { RequestInput } from "../request.js";

/**
 * The body of a `node:http` request, pulled chunk by chunk (one small object per request; nothing is
 * read unless a handler asks). Stopping early lets the rest flow by unkept: memory stays flat, the
 * client is never cut off mid-upload (which would lose the 413 it is about to read), and node:http's
 * own `requestTimeout` bounds how long a client may go on sending.
 */
export class NodeBody implements BodySource {
  private stopped = false;

  constructor(private readonly req: IncomingMessage) {}

  read(): Promise<Uint8Array | null> {
    const req = this.req;
    if (this.stopped || req.readableEnded) return Promise.resolve(null);
    if (req.destroyed) return Promise.reject(new Error("the request stream is closed"));
    return new Promise<Uint8Array | null>((resolve, reject) => {
      const settle = (done: () => void): void => {
        req.off("readable", attempt);
        req.off("end", ended);
        req.off("error", failed);
        req.off("close", closed);
        done();
      };
      const attempt = (): void => {
        const chunk = req.read() as Uint8Array | null;
        if (chunk !== null) settle(() => resolve(chunk));
        else if (req.readableEnded) settle(() => resolve(null));
      };
      const ended = (): void => settle(() => resolve(null));
      const failed = (error: Error): void => settle(() => reject(error));
      const closed = (): void =>
        settle(() =>
          req.readableEnded
            ? resolve(null)
            : reject(new Error("the client closed the connection before the body was complete")),
        );
      req.on("readable", attempt);
      req.on("end", ended);
      req.on("error", failed);
      req.on("close", closed);
      attempt();
    });
  }

  stop(): void {
    this.stopped = true;
    this.req.resume();
  }
}

/**
 * A `node:http` request as pipeline input (for the node, Express and Koa adapters): its lower-case
 * header record read in place, not copied; its body pulled on demand, or the one a framework's parser
 * already read (`parsed`: Express's `req.body`, Koa's `ctx.request.body`).
 */
export function nodeInput(req: IncomingMessage, adapter: string, raw: unknown, parsed?: unknown): RequestInput {
  return {
    method: req.method ?? "GET",
    url: req.url ?? "/",
    headers: headersOf(req.headers, true),
    body: new NodeBody(req),
    parsedBody: parsedBodyOf(req, parsed),
    raw,
    adapter,
  };
}

/**
 * The body a framework's parser left on the request, as the pipeline takes it: only when the parser
 * read the request stream to the end. A parser that skipped a content type may still leave a
 * placeholder (`{}` from @koa/bodyparser and Express 4's body-parser) over a stream nobody read; then
 * the body is read from the stream.
 */
function parsedBodyOf(request: IncomingMessage, body: unknown): { readonly value: unknown } | undefined {
  return body === undefined || !request.readableEnded ? undefined : { value: body };
}
