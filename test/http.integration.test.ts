import { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import {
  isHttpError,
  nodeRequest,
  alt,
  GET,
  HTTP,
  Int,
  method,
  path,
  pathEnd,
  pathVar,
  POST,
  reply,
  routeMismatch,
  Text,
  toApplication,
} from "../src";
import { rawRequest, startServer, statusOf, type TestServer } from "./helpers/server";
import { inheritance, INHERITS_NOTHING } from "./helpers/vars";

/*
 * A real node:http server on 127.0.0.1 (port 0) serving a tree through toApplication, called with fetch.
 */

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const reported: Array<{ error: unknown; method: string; url: string }> = [];

const tree = alt(
  method(
    GET,
    path(
      "/hello",
      pathEnd(() => "hello"),
    ),
  ),
  method(
    GET,
    path(
      "/users",
      pathVar(
        "id",
        Int,
        pathEnd((request) => ({ id: request.vars.id })),
      ),
    ),
  ),
  method(
    GET,
    path(
      "/async",
      pathEnd(async () => {
        await tick();
        return { async: true };
      }),
    ),
  ),
  method(
    GET,
    path(
      "/throw",
      pathEnd(() => {
        throw new Error("kaboom: secret detail");
      }),
    ),
  ),
  method(
    GET,
    path(
      "/reject",
      pathEnd(async () => {
        await tick();
        throw new Error("rejected: secret detail");
      }),
    ),
  ),
  method(
    GET,
    path(
      "/mismatch",
      pathEnd(async () => routeMismatch()),
    ),
  ),
  method(
    GET,
    path(
      "/mismatch",
      pathEnd(() => "second alternative"),
    ),
  ),
  method(
    GET,
    path(
      "/bad-header",
      pathEnd(() => reply({ headers: { "x-bad": "line\r\nbreak" } })),
    ),
  ),
  method(
    GET,
    path(
      "/interim",
      pathEnd(() => reply({ status: 103 })),
    ),
  ),
  method(
    GET,
    path(
      "/big",
      pathEnd(() => ({ id: 2n ** 63n - 1n, list: [1n, -(10n ** 20n)] })),
    ),
  ),
  method(
    GET,
    path(
      "/nothing",
      pathEnd(() => undefined),
    ),
  ),
  method(
    GET,
    path(
      "/custom",
      pathEnd(() =>
        reply({ status: 201, headers: { "X-Custom": "yes", "Set-Cookie": ["a=1", "b=2"] }, body: "created" }),
      ),
    ),
  ),
  method(
    GET,
    path(
      "/bytes",
      pathEnd(() =>
        reply({ status: 203, headers: { "content-type": "application/x-bin" }, body: new Uint8Array([0, 1, 2, 255]) }),
      ),
    ),
  ),
  method(
    GET,
    path(
      "/stream",
      pathEnd(() => reply({ status: 200, body: Readable.from(["chunk1,", "chunk2,", "chunk3"]) })),
    ),
  ),
  method(
    HTTP.HEAD,
    path(
      "/head-only",
      pathEnd(() => reply({ status: 200, headers: { "x-head": "1" } })),
    ),
  ),
  method(
    "PROPFIND",
    path(
      "/dav",
      pathEnd(() => "propfind"),
    ),
  ),
  method(
    POST,
    path(
      "/echo-json",
      pathEnd(async (request) => ({ got: await request.json() })),
    ),
  ),
  method(
    POST,
    path(
      "/echo-text",
      pathEnd(async (request) => `text:${await request.text()}`),
    ),
  ),
  path("/inspect", (request) => ({
    method: request.method,
    url: request.url,
    path: request.path,
    segments: request.segments,
    rest: request.rest,
    query: [...request.query.entries()],
    header: request.headers.get("x-test"),
    varsInherit: inheritance(request.vars),
    rawIsIncomingMessage: nodeRequest(request) instanceof IncomingMessage,
    rawMethod: nodeRequest(request).method,
  })),
  path(
    "/vars",
    pathVar(
      "label",
      Text,
      pathVar("n", Int, (request) => ({
        vars: request.vars,
        inherits: inheritance(request.vars),
        toStringIn: "toString" in request.vars,
      })),
    ),
  ),
);

let server: TestServer;

beforeAll(async () => {
  server = await startServer(
    toApplication(tree, {
      onError: (error, request) => reported.push({ error, method: request.method, url: request.url }),
    }),
  );
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  reported.length = 0;
});

const get = (p: string, init?: RequestInit): Promise<Response> => fetch(server.url + p, init);

describe("hits and 404s over HTTP", () => {
  test("a static route answers 200 text", async () => {
    const response = await get("/hello");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe("hello");
  });
  test("a typed variable answers JSON with the parsed value", async () => {
    const response = await get("/users/42");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ id: 42 });
  });
  test("no match is 404 with an empty body", async () => {
    for (const p of ["/nope", "/users/x", "/users/42/more", "/hello/", "/HELLO", "/"]) {
      const response = await get(p);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("");
    }
  });
  test("the method must match: POST to a GET route is 404 (no automatic 405)", async () => {
    const response = await get("/hello", { method: "POST", body: "x" });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("");
  });
  test("the query string is ignored by routing", async () => {
    expect(await (await get("/hello?x=1&y=/nope")).text()).toBe("hello");
  });
  test("routeMismatch from an async handler falls through to the next alternative", async () => {
    expect(await (await get("/mismatch")).text()).toBe("second alternative");
  });
  test("parallel requests each get their own answer", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => i * 7);
    const bodies = await Promise.all(ids.map(async (id) => (await get(`/users/${id}`)).json()));
    expect(bodies).toEqual(ids.map((id) => ({ id })));
  });
});

describe("errors over HTTP", () => {
  test("a throwing handler is a 500 with a short text body; onError is told; the next request is served", async () => {
    const response = await get("/throw");
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await response.text();
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThan(100);
    expect(body).not.toContain("secret");
    expect(reported).toHaveLength(1);
    expect((reported[0]!.error as Error).message).toBe("kaboom: secret detail");
    expect(reported[0]).toMatchObject({ method: "GET", url: "/throw" });
    expect(await (await get("/hello")).text()).toBe("hello");
  });
  test("a rejecting async handler is a 500; onError is told; the next request is served", async () => {
    const response = await get("/reject");
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("secret");
    expect(reported.map((r) => (r.error as Error).message)).toEqual(["rejected: secret detail"]);
    expect((await get("/users/1")).status).toBe(200);
  });
  test("many failures in a row do not take the server down", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => get(i % 2 ? "/throw" : "/reject").then((r) => r.status)),
    );
    expect(statuses).toEqual(Array(10).fill(500));
    expect(reported).toHaveLength(10);
    expect((await get("/hello")).status).toBe(200);
  });
  test("a reply with a header HTTP cannot carry is a 500 told to onError, not a hung connection", async () => {
    const response = await get("/bad-header");
    expect(response.status).toBe(500);
    expect(response.headers.get("x-bad")).toBeNull();
    expect(reported).toHaveLength(1);
    expect(reported[0]!.error).toBeInstanceOf(TypeError);
    expect((await get("/hello")).status).toBe(200);
  });
  test("a reply with an interim (1xx) status is a 500 told to onError, not a hung connection", async () => {
    const response = await get("/interim");
    expect(response.status).toBe(500);
    expect(reported[0]!.error).toBeInstanceOf(RangeError);
    expect((await get("/hello")).status).toBe(200);
  });
});

describe("handler results over HTTP", () => {
  test("an async handler's value is the answer", async () => {
    expect(await (await get("/async")).json()).toEqual({ async: true });
  });
  test("JSON with bigint: exact numbers in the body", async () => {
    const response = await get("/big");
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.text()).toBe('{"id":9223372036854775807,"list":[1,-100000000000000000000]}');
  });
  test("undefined is 204 with no body", async () => {
    const response = await get("/nothing");
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
  });
  test("reply() with status, headers (repeated too) and a text body", async () => {
    const response = await get("/custom");
    expect(response.status).toBe(201);
    expect(response.headers.get("x-custom")).toBe("yes");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.text()).toBe("created");
  });
  test("reply() with bytes", async () => {
    const response = await get("/bytes");
    expect(response.status).toBe(203);
    expect(response.headers.get("content-type")).toBe("application/x-bin");
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([0, 1, 2, 255]);
  });
  test("reply() with a stream", async () => {
    const response = await get("/stream");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("chunk1,chunk2,chunk3");
  });
});

describe("methods over HTTP", () => {
  test("HEAD is routed to a HEAD route", async () => {
    const response = await get("/head-only", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-head")).toBe("1");
  });
  test("HEAD does not fall back to GET", async () => {
    expect((await get("/hello", { method: "HEAD" })).status).toBe(404);
  });
  test("an extension method (PROPFIND) is routed by method()", async () => {
    const response = await get("/dav", { method: "PROPFIND" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("propfind");
    expect((await get("/dav")).status).toBe(404);
  });
  test("methods with no route are 404", async () => {
    for (const m of ["PUT", "DELETE", "PATCH", "OPTIONS", "PROPPATCH"]) {
      expect((await get("/hello", { method: m })).status).toBe(404);
    }
  });
  test("a method node:http does not know is refused by node itself; the server keeps serving", async () => {
    const raw = await rawRequest(server.port, "BREW /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(statusOf(raw)).toBeGreaterThanOrEqual(400);
    expect(statusOf(raw)).not.toBe(500);
    expect((await get("/hello")).status).toBe(200);
  });
});

describe("the request a handler receives, over HTTP", () => {
  test("method, url, path, segments, rest, query, headers and raw", async () => {
    const response = await get("/inspect/a%2Fb/c%20d/?x=1&x=2&y=%20z", {
      method: "PUT",
      headers: { "X-Test": "yes" },
      body: "",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      method: "PUT",
      url: "/inspect/a%2Fb/c%20d/?x=1&x=2&y=%20z",
      path: "/inspect/a%2Fb/c%20d/",
      segments: ["inspect", "a/b", "c d", ""],
      rest: ["a/b", "c d", ""],
      query: [
        ["x", "1"],
        ["x", "2"],
        ["y", " z"],
      ],
      header: "yes",
      varsInherit: INHERITS_NOTHING,
      rawIsIncomingMessage: true,
      rawMethod: "PUT",
    });
  });
  test("vars holds the captured values and inherits nothing", async () => {
    const response = await get("/vars/__proto__/7");
    expect(await response.json()).toEqual({
      vars: { label: "__proto__", n: 7 },
      inherits: INHERITS_NOTHING,
      toStringIn: false,
    });
  });
  test("request.json() reads a POSTed JSON body", async () => {
    const body = { name: "ünïcode", list: [1, 2, 3], nested: { ok: true } };
    const response = await get("/echo-json", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(await response.json()).toEqual({ got: body });
  });
  test("request.text() reads a POSTed text body, also a large one in many chunks", async () => {
    expect(await (await get("/echo-text", { method: "POST", body: "plain ✓" })).text()).toBe("text:plain ✓");
    const large = "x".repeat(256 * 1024);
    expect(await (await get("/echo-text", { method: "POST", body: large })).text()).toBe(`text:${large}`);
  });
  test("request.json() with a malformed body is a 400 with a useful body, and the server keeps serving", async () => {
    const response = await get("/echo-json", { method: "POST", body: "{not json" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/^request body is not valid JSON: /);
    expect(reported).toHaveLength(1);
    expect(isHttpError(reported[0]!.error)).toBe(true);
    expect((reported[0]!.error as Error).cause).toBeInstanceOf(SyntaxError);
    expect((await get("/hello")).status).toBe(200);
  });
});
