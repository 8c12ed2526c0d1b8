import { connect as connectHttp2, createServer as createHttp2Server, type Http2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import {
  alt,
  compile,
  inject,
  json,
  reply,
  route,
  testClient,
  text,
  toApplication,
  type Reply,
  type Route,
} from "../src";
import { startServer, type TestServer } from "./helpers/server";

/*
 * `inject` answers what a node:http server answers, for the replies where HTTP itself has a say: a 204
 * or 304 that carries a body, a HEAD, a stream that fails before or after its first byte, and a reply
 * forged by hand instead of made by `reply()`.
 */

const failingBeforeFirst = (): Reply =>
  reply({ body: new ReadableStream({ pull: (c) => c.error(new Error("no disk")) }) });
const forged = (fields: Partial<Record<"status" | "headers" | "body", unknown>>) => (): Reply =>
  ({ ...text("x"), ...fields }) as Reply;

const tree = alt(
  route("GET /no-content", () => reply({ status: 204, body: "ignored" })),
  route("GET /not-modified", () => reply({ status: 304, headers: { etag: '"1"' }, body: Readable.from(["ignored"]) })),
  route("/page", () => text("a page")), // every method, HEAD included
  route("GET /fails-first", failingBeforeFirst),
  route("GET /forged-status", forged({ status: 42 })),
  route("GET /forged-header", forged({ headers: { "bad name": "x" } })),
  route("GET /forged-body", forged({ body: 42 })),
  route("GET /forged-ok", forged({ status: 201, headers: { "x-made": "by hand" }, body: "fine" })),
);

const cases: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/no-content"],
  ["GET", "/not-modified"],
  ["HEAD", "/page"],
  ["GET", "/fails-first"],
  ["GET", "/forged-status"],
  ["GET", "/forged-header"],
  ["GET", "/forged-body"],
  ["GET", "/forged-ok"],
];

describe("inject agrees with node:http", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(toApplication(tree, { onError: () => undefined }));
  });
  afterAll(() => server.close());

  test.each(cases)("%s %s", async (method, url) => {
    const overHttp = await fetch(`${server.url}${url}`, { method });
    const inMemory = await inject(tree, { method, url }, { onError: () => undefined });
    expect({ status: inMemory.status, body: inMemory.body }).toEqual({
      status: overHttp.status,
      body: await overHttp.text(),
    });
  });

  test("the answers are the ones HTTP asks for", async () => {
    const client = testClient(tree, { onError: () => undefined });
    const statusOf = async (method: string, url: string) => {
      const response = await client.request({ method, url });
      return [response.status, response.body] as const;
    };
    expect(await statusOf("GET", "/no-content")).toEqual([204, ""]);
    expect(await statusOf("GET", "/not-modified")).toEqual([304, ""]);
    expect(await statusOf("HEAD", "/page")).toEqual([200, ""]);
    expect(await statusOf("GET", "/fails-first")).toEqual([500, "Internal Server Error"]);
    expect(await statusOf("GET", "/forged-status")).toEqual([500, "Internal Server Error"]);
    expect(await statusOf("GET", "/forged-header")).toEqual([500, "Internal Server Error"]);
    expect(await statusOf("GET", "/forged-body")).toEqual([500, "Internal Server Error"]);
    expect(await statusOf("GET", "/forged-ok")).toEqual([201, "fine"]);
  });
});

describe("inject compiles a tree once", () => {
  test("repeated inject calls on one tree reuse one client (the tree is compiled once)", async () => {
    let compiled = 0;
    const counting = (routeTree: Route) => {
      compiled++;
      return compile(routeTree).dispatch;
    };
    const app = alt(route("GET /a", () => json({ a: 1 })));
    const client = testClient(app, { dispatcher: counting });
    await client.request({ url: "/a" });
    await client.request({ url: "/a" });
    expect(compiled).toBe(1);
    // the option-less shorthand shares one client per tree
    const first = await inject(app, { url: "/a" });
    const second = await inject(app, { url: "/a" });
    expect([first.body, second.body]).toEqual(['{"a":1}', '{"a":1}']);
  });
});

describe("the http2 compatibility API", () => {
  let server: Http2Server;
  let origin: string;
  beforeAll(async () => {
    server = createHttp2Server(
      toApplication(
        alt(
          route("GET /hello", () => "hi over h2"),
          route("GET /stream", () => Readable.from(["a", "b"])),
          route("POST /echo", async (req) => ({ got: await req.json() })),
        ),
      ) as never,
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function h2(method: string, path: string, body?: string): Promise<[number, string]> {
    return new Promise((resolve, reject) => {
      const session = connectHttp2(origin);
      const stream = session.request({ ":method": method, ":path": path });
      let status = 0;
      let data = "";
      stream.on("response", (headers) => (status = Number(headers[":status"])));
      stream.on("data", (chunk: Buffer) => (data += chunk.toString()));
      stream.on("end", () => {
        session.close();
        resolve([status, data]);
      });
      stream.on("error", reject);
      stream.end(body);
    });
  }

  test("text, streams, JSON bodies and 404 over HTTP/2", async () => {
    expect(await h2("GET", "/hello")).toEqual([200, "hi over h2"]);
    expect(await h2("GET", "/stream")).toEqual([200, "ab"]);
    expect(await h2("POST", "/echo", '{"n":1}')).toEqual([200, '{"got":{"n":1}}']);
    expect(await h2("GET", "/nowhere")).toEqual([404, ""]);
  });
});
