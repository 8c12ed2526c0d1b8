import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { connect } from "node:net";
import { join } from "node:path";
import * as lib from "../src";
import { toFetch } from "../src/adapters/fetch";
import { bodyApp, LIMIT, observeLies } from "./fixtures/fetch-body-lies.cjs";
import { ROOT, WORKER_ENTRY } from "./shared/package-entry";
import { fixtureServedOn } from "./shared/runtimes";

/*
 * The Fetch adapter reads a body whose length is declared (and no transfer coding is) whole, with the
 * runtime's own `arrayBuffer()`, instead of pulling chunks through a JS reader. The body limit must hold
 * exactly as before: a declared length over it is refused before a byte is read, and a body longer than
 * it declared (a `Request` made in process can lie; a server frames the body by its header) is still
 * counted and refused. Checked on Node here, and in Bun, Deno and workerd with the built package, in
 * process and over the wire.
 */

/** What every runtime's handler makes of the lies in fetch-body-lies.cjs (`pulled`: chunks read). */
const EXPECTED = {
  longerWithin: { status: 200, json: { length: 200 }, pulled: 2 },
  // read whole by the runtime (every chunk), then refused: the fast path was taken, the limit held
  longerOver: { status: 413, json: { error: `request body is larger than the limit of ${LIMIT} bytes` }, pulled: 4 },
  declaredOver: { status: 413, json: { error: `request body is larger than the limit of ${LIMIT} bytes` }, pulled: 0 },
  // chunk by chunk: stopped at the first chunk over the limit
  chunkedOver: { status: 413, json: { error: `request body is larger than the limit of ${LIMIT} bytes` }, pulled: 2 },
  notANumber: { status: 200, json: { length: 200 }, pulled: 2 },
};

/** One raw HTTP/1.1 exchange: the status and body of the first response. */
function rawPost(url: string, headers: string, body: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.end(`POST /length HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n${body}`);
    });
    let got = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (got += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1]);
      resolve({ status, body: got.slice(got.indexOf("\r\n\r\n") + 4) });
    });
  });
}

/** Sent over the wire: a body longer than its content-length, and one with a transfer coding too. */
async function overTheWire(url: string) {
  return {
    longer: await rawPost(url, "Content-Length: 5\r\n", "a".repeat(100)),
    both: await rawPost(
      url,
      "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
      `64\r\n${"a".repeat(100)}\r\n0\r\n\r\n`,
    ),
  };
}

test("Node: a declared length within the limit is read whole, and the limit still holds for a lie", async () => {
  expect(await observeLies(lib, toFetch)).toEqual(EXPECTED);
});

test("a look-alike built on Request.prototype (@hono/node-server's lightweight request) is read by its own arrayBuffer()", async () => {
  const real = new Request("http://localhost/length", {
    method: "POST",
    headers: { "content-length": "5" },
    body: "hello",
  });
  // as @hono/node-server makes it: a prototype of its own, with its getters and body readers, over
  // Request.prototype, and an object made from it per request
  const lightweight = Object.create(Request.prototype, {
    method: { get: () => real.method },
    url: { get: () => real.url },
    headers: { get: () => real.headers },
    body: { get: () => real.body },
    arrayBuffer: { value: () => real.arrayBuffer() },
  });
  const lookAlike = Object.create(lightweight) as Request;
  const response = await bodyApp(lib, toFetch)(lookAlike);
  expect({ status: response.status, json: await response.json() }).toEqual({ status: 200, json: { length: 5 } });
});

describe.each(["bun", "deno"] as const)("%s", (runtime) => {
  const url = fixtureServedOn(runtime, "fetch-body-serve.mjs");

  test("in process: the same answers as on Node", async () => {
    expect(await (await fetch(`${url()}/lies`)).json()).toEqual(EXPECTED);
  });

  test("over the wire: the server frames the body by its length; a length beside a transfer coding is a 400", async () => {
    const { longer, both } = await overTheWire(url());
    // the handler never sees past the declared length: Bun cuts the body there, and so does Deno, which
    // may instead error the body stream when the rest arrives in a packet of its own (then a 500, as
    // before the fast path)
    if (runtime === "deno" && longer.status === 500) expect(longer.body).toBe("Internal Server Error");
    else expect(longer).toEqual({ status: 200, body: '{"length":5}' });
    expect(both.status).toBe(400);
  });
});

describe("workerd", () => {
  let miniflare: Miniflare;
  beforeAll(async () => {
    // the worker as a Workers bundler makes it: one module, from the built package
    const bundled = await build({
      stdin: {
        contents: [
          `import * as lib from ${JSON.stringify(WORKER_ENTRY.main)};`,
          `import { toFetch } from ${JSON.stringify(WORKER_ENTRY.fetch)};`,
          `import { liesHandler } from ${JSON.stringify(join(ROOT, "test/fixtures/fetch-body-lies.cjs"))};`,
          "export default { fetch: liesHandler(lib, toFetch) };",
        ].join("\n"),
        resolveDir: ROOT,
      },
      bundle: true,
      format: "esm",
      platform: "neutral",
      write: false,
      logLevel: "error",
    });
    miniflare = new Miniflare({ modules: true, script: bundled.outputFiles[0]!.text, compatibilityDate: "2025-01-01" });
    await miniflare.ready;
  }, 30_000);
  afterAll(() => miniflare?.dispose());

  test("in process: the same answers as on Node", async () => {
    expect(await (await miniflare.dispatchFetch("http://localhost/lies")).json()).toEqual(EXPECTED);
  });

  test("over the wire: the body is framed by its length, or by the transfer coding when both are sent", async () => {
    const { longer, both } = await overTheWire(String(await miniflare.ready));
    expect(longer).toEqual({ status: 200, body: '{"length":5}' });
    expect(both).toEqual({ status: 200, body: '{"length":100}' });
  });
});
