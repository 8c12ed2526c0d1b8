import express from "express";
import { toExpress } from "switchyard-router/express";
import { alt, cookie, reply, route, text, toApplication, type Reply } from "../src";
import { bodyOf, rawRequest, startServer, type TestServer } from "./helpers/server";

// What the node adapter does when a reply cannot be written: the client gets an answer, onError hears
// of it, and the server goes on serving.
describe("toApplication: replies that cannot be written", () => {
  let server: TestServer;
  const errors: unknown[] = [];

  beforeAll(async () => {
    const badBody = (): Reply => ({ ...text("x"), body: 42 as never }); // a hand-made reply with a body node cannot send
    const tree = alt(
      route("GET /bad-body", badBody),
      route("GET /ok", () => "fine"),
    );
    server = await startServer(toApplication(tree, { onError: (e) => errors.push(e) }));
  });
  afterAll(() => server.close());

  test("a body node:http refuses gives a 500, reported to onError; the next request is served", async () => {
    const res = await fetch(`${server.url}/bad-body`);
    expect(res.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).name).toBe("TypeError"); // thrown by node:http, from another realm than jest's
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
  });

  test("checked headers are frozen, so they cannot be made unsendable after the check", () => {
    const r = text("x", { headers: { "x-a": "1" } });
    expect(Object.isFrozen(r.headers)).toBe(true);
    expect(() => {
      (r.headers as Record<string, string>)["bad name"] = "v";
    }).toThrow(TypeError);
  });
});

// A text or bytes reply is written in one writeHead with its byte length; these pin what the client reads.
describe("toApplication: what a reply puts on the wire", () => {
  let server: TestServer;
  const MULTI = "héllo €"; // 7 characters, 10 bytes in UTF-8

  beforeAll(async () => {
    const tree = alt(
      route("GET /multi", () => text(MULTI)),
      route("HEAD /multi", () => text(MULTI)),
      route("GET /bytes", () => reply({ body: new Uint8Array([1, 2, 3]) })),
      route("GET /empty", () => text("")),
      route("GET /none", () => reply({ status: 204 })),
      route("GET /cookies", () => text("c", { cookies: [cookie("a", "1"), cookie("b", "2")] })),
      route("GET /own-length", () => text("abc", { headers: { "content-length": "3" } })),
    );
    server = await startServer(toApplication(tree));
  });
  afterAll(() => server.close());

  const head = (raw: string): string[] => raw.slice(0, raw.indexOf("\r\n\r\n")).toLowerCase().split("\r\n");
  const ask = (method: string, path: string): Promise<string> =>
    rawRequest(server.port, `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);

  test("text goes out with its length in bytes, not characters, and not chunked", async () => {
    const raw = await ask("GET", "/multi");
    expect(head(raw)).toContain("content-length: 10");
    expect(head(raw).some((line) => line.startsWith("transfer-encoding"))).toBe(false);
    expect(Buffer.from(bodyOf(raw), "latin1").toString("utf8")).toBe(MULTI);
  });

  test("bytes and an empty text go out with their length", async () => {
    const bytes = await ask("GET", "/bytes");
    expect(head(bytes)).toContain("content-length: 3");
    expect([...Buffer.from(bodyOf(bytes), "latin1")]).toEqual([1, 2, 3]);
    const empty = await ask("GET", "/empty");
    expect(head(empty)).toContain("content-length: 0");
    expect(bodyOf(empty)).toBe("");
  });

  test("HEAD and 204 have no body, no length and no transfer coding; one content-length when the reply sets it", async () => {
    for (const raw of [await ask("HEAD", "/multi"), await ask("GET", "/none")]) {
      expect(head(raw).filter((line) => /^(content-length|transfer-encoding):/.test(line))).toEqual([]);
      expect(bodyOf(raw)).toBe("");
    }
    const own = await ask("GET", "/own-length");
    expect(head(own).filter((line) => line.startsWith("content-length:"))).toEqual(["content-length: 3"]);
  });

  test("each cookie is its own set-cookie line", async () => {
    const raw = await ask("GET", "/cookies");
    expect(head(raw).filter((line) => line.startsWith("set-cookie:"))).toEqual([
      expect.stringMatching(/^set-cookie: a=1/),
      expect.stringMatching(/^set-cookie: b=2/),
    ]);
    expect(bodyOf(raw)).toBe("c");
  });
});

// Headers set on the response before the reply is written (a framework's middleware, or the app's own
// listener) are kept beside the reply's; a transfer coding set there decides the framing.
describe("toApplication and toExpress: headers set on the response before the reply", () => {
  const tree = route("GET /x", () => text("abc", { headers: { "x-reply": "1" } }));
  const head = (raw: string): string[] => raw.slice(0, raw.indexOf("\r\n\r\n")).toLowerCase().split("\r\n");
  const ask = (server: TestServer): Promise<string> =>
    rawRequest(server.port, "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

  test("Express's x-powered-by and a middleware's header go out with the reply's", async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("x-request-id", "r1");
      next();
    });
    app.use(toExpress(tree));
    const server = await startServer(app);
    try {
      const lines = head(await ask(server));
      expect(lines).toEqual(
        expect.arrayContaining(["x-powered-by: express", "x-request-id: r1", "x-reply: 1", "content-length: 3"]),
      );
    } finally {
      await server.close();
    }
  });

  test("a transfer coding set on the response before is kept: the body goes out chunked, with no length", async () => {
    const app = toApplication(tree);
    const server = await startServer((req, res) => {
      res.setHeader("transfer-encoding", "chunked");
      app(req, res);
    });
    try {
      const raw = await ask(server);
      expect(head(raw)).toEqual(expect.arrayContaining(["transfer-encoding: chunked", "x-reply: 1"]));
      expect(head(raw).filter((line) => line.startsWith("content-length:"))).toEqual([]);
      expect(bodyOf(raw)).toBe("3\r\nabc\r\n0\r\n\r\n");
    } finally {
      await server.close();
    }
  });
});
