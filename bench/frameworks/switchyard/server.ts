/*
 * Child process of the framework benchmark: serves one switchyard app on 127.0.0.1 and prints its port.
 * Usage: node dist/bench/frameworks/switchyard/server.js <decorated|functional|zod|functional-zod> [node|node-fetch]
 *        bun --tsconfig-override=bench/frameworks/bun.tsconfig.json dist/bench-esm/bench/frameworks/switchyard/server.js <app>
 * Node runs the CommonJS build of this file (dist/bench), Bun the ES module build (dist/bench-esm), as
 * the Hono and Elysia apps it is compared with are ES modules (zod alone loads in ~18 ms as an ES module
 * on Bun, ~50 ms as CommonJS).
 * node: node:http with toApplication; node-fetch: the Fetch adapter (toFetch) on node:http through
 * @hono/node-server; under Bun: the Fetch adapter on Bun.serve. Only the asked app's module is loaded,
 * so the cold start of one app does not pay for the others' libraries.
 */
import { createServer, type RequestListener } from "node:http";
import { createRequire } from "node:module";
import path from "node:path";
import type { Route } from "switchyard-router";
import { toFetch } from "switchyard-router/fetch";
import { toApplication } from "switchyard-router/node";

type FetchHandler = (request: Request) => Response | Promise<Response>;
interface BunServe {
  serve(options: { port: number; hostname: string; fetch: FetchHandler }): { port: number };
}

const apps: Record<string, () => Promise<{ app: Route }>> = {
  decorated: () => import("./decorated.js"),
  functional: () => import("./functional.js"),
  zod: () => import("./zod.js"),
  "functional-zod": () => import("./functional-zod.js"),
};

/** @hono/node-server, a dependency of the benchmark (bench/node_modules), loaded only for `node-fetch`. */
function nodeServer(): { getRequestListener(fetch: FetchHandler): RequestListener } {
  // this file runs from dist/bench/frameworks/switchyard/
  return createRequire(path.resolve(__dirname, "../../../../bench/package.json"))("@hono/node-server");
}

async function main(name: string, transport: string): Promise<number> {
  const load = apps[name];
  if (load === undefined) throw new Error(`unknown app ${name}; one of ${Object.keys(apps).join(", ")}`);
  const { app } = await load();
  const bun = (globalThis as { Bun?: BunServe }).Bun;
  if (bun !== undefined) return bun.serve({ port: 0, hostname: "127.0.0.1", fetch: toFetch(app) }).port;
  const listener: RequestListener =
    transport === "node-fetch" ? nodeServer().getRequestListener(toFetch(app)) : toApplication(app);
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}

main(process.argv[2] ?? "", process.argv[3] ?? "node").then(
  (port) => process.stdout.write(`${port}\n`),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
