import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestServer } from "./server";

/**
 * `startServer` (./server.ts) with `node:http` server options, e.g. `{ maxHeaderSize: 256 * 1024 }` so that a
 * request target longer than node's default header limit (16 KiB, answered 431 by node itself) reaches
 * the router.
 */
export async function startServerWith(
  options: ServerOptions,
  listener: (req: IncomingMessage, res: ServerResponse) => void,
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
