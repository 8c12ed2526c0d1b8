import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";

/** A running `node:http` server on 127.0.0.1 with an OS-chosen port. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  close(): Promise<void>;
}

/**
 * Starts `listener` on 127.0.0.1:0, with `node:http` server `options` if given (e.g.
 * `{ maxHeaderSize: 256 * 1024 }`, so that a request target longer than node's default header limit —
 * 16 KiB, answered 431 by node itself — reaches the router); `close()` stops it and drops idle
 * keep-alive sockets.
 */
export async function startServer(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: ServerOptions = {},
): Promise<TestServer> {
  const server = createServer(options, listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * Sends `request` (raw bytes, e.g. `"GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"`) over a
 * plain TCP socket and resolves with everything the server wrote back before closing the connection.
 * For requests `fetch` refuses to send. The request should say `Connection: close`: the socket is not
 * half-closed (node:http would then drop the request), the server closes it after answering.
 */
export function rawRequest(port: number, request: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // the server may reset a connection it refused; what it sent before is still the answer
      if (error.code === "ECONNRESET" || error.code === "EPIPE") resolve(Buffer.concat(chunks).toString("latin1"));
      else reject(error);
    });
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.write(request);
  });
}

/** The status code of a raw HTTP/1.1 response (`HTTP/1.1 404 Not Found` → 404), or NaN. */
export function statusOf(rawResponse: string): number {
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(rawResponse);
  return match === null ? Number.NaN : Number(match[1]);
}

/** The body of a raw HTTP/1.1 response that is not chunked. */
export function bodyOf(rawResponse: string): string {
  const end = rawResponse.indexOf("\r\n\r\n");
  return end === -1 ? "" : rawResponse.slice(end + 4);
}
