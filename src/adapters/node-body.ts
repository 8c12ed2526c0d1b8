import type { IncomingMessage } from "node:http";
import type { BodySource } from "../body.js";

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
        settle(() => (req.readableEnded ? resolve(null) : reject(new Error("the client closed the connection before the body was complete"))));
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
