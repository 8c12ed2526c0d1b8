import { bodyParser } from "@koa/bodyparser";
import express from "express";
import Koa from "koa";
import { IncomingMessage } from "node:http";
import {
  alt,
  GET,
  HttpError,
  inject,
  method,
  path,
  pathEnd,
  POST,
  reply,
  type Route,
  type RoutedRequest,
} from "switchyard-router";
import { expressRequest, toExpress } from "switchyard-router/express";
import { fetchRequest, toFetch } from "switchyard-router/fetch";
import { koaContext, toKoa } from "switchyard-router/koa";
import { nodeRequest, toApplication } from "switchyard-router/node";
import { startServer, type TestServer } from "./helpers/server";

/*
 * What the Express and Koa middleware do beyond the shared table (adapters.table.test.ts): falling
 * through to the app's later routes, bodies a framework's parser already read, errors handed to the
 * framework, mounting under a prefix; and each adapter's accessor for its native request. Real apps on
 * real servers on 127.0.0.1.
 */

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function serve(listener: Parameters<typeof startServer>[0]): Promise<string> {
  const server = await startServer(listener);
  servers.push(server);
  return server.url;
}

const postJson = (url: string, body: string, type = "application/json"): Promise<Response> =>
  fetch(url, { method: "POST", headers: { "content-type": type }, body });

/** What each accessor gives for a request: the kind of native object, or the error it throws. */
function accessorsOf(request: RoutedRequest<object>): Record<string, string> {
  const kinds: Record<string, string> = {};
  const tries: Record<string, () => unknown> = {
    node: () => nodeRequest(request),
    fetch: () => fetchRequest(request),
    express: () => expressRequest(request),
    koa: () => koaContext(request),
  };
  for (const [name, get] of Object.entries(tries)) {
    try {
      const raw = get();
      kinds[name] =
        raw instanceof IncomingMessage ? "IncomingMessage" : raw instanceof Request ? "Request" : typeof raw;
    } catch (error) {
      kinds[name] =
        error instanceof TypeError && error.message.includes(`"${request.adapter}" adapter`)
          ? "TypeError"
          : `unexpected: ${String(error)}`;
    }
  }
  return kinds;
}

const thrown = (): never => {
  throw new Error("handler failed");
};
const teapot = (): never => {
  throw new HttpError(418, "short and stout", { headers: { "x-reason": "tea" } });
};

const tree: Route = alt(
  method(
    GET,
    path(
      "/hello",
      pathEnd((req) => `hello from ${req.adapter}, path ${req.path}`),
    ),
  ),
  method(
    POST,
    path(
      "/json",
      pathEnd(async (req) => ({ got: await req.json() })),
    ),
  ),
  method(
    POST,
    path(
      "/text",
      pathEnd(async (req) => ({ text: await req.text() })),
    ),
  ),
  method(
    POST,
    path(
      "/bytes",
      pathEnd(async (req) => ({ bytes: [...(await req.bytes())] })),
    ),
  ),
  method(GET, path("/throw", pathEnd(thrown))),
  method(GET, path("/teapot", pathEnd(teapot))),
  method(
    GET,
    path(
      "/cut",
      pathEnd(() =>
        reply({
          body: (async function* () {
            yield "first,";
            throw new Error("mid-way");
          })(),
        }),
      ),
    ),
  ),
);

describe("Express 5 middleware", () => {
  const caught: unknown[] = [];
  let url: string;
  beforeAll(async () => {
    const app = express();
    app.use((req, _res, next) => {
      (req as unknown as { marker: string }).marker = "set upstream";
      next();
    });
    app.use(
      "/native",
      toExpress(
        method(
          GET,
          pathEnd((req) => {
            // Express's own request type, with what the upstream middleware added
            const native = expressRequest(req) as unknown as express.Request & { marker: string };
            return { ...accessorsOf(req), marker: native.marker, originalUrl: native.originalUrl };
          }),
        ),
      ),
    );
    app.use("/parsed", express.json(), express.text(), express.raw(), toExpress(tree));
    // what Express 4's body-parser does for a type it skips: a placeholder over an unread stream
    app.use(
      "/placeholder",
      (req, _res, next) => {
        req.body ??= {};
        next();
      },
      toExpress(tree),
    );
    app.use("/api", toExpress(tree));
    app.use("/answered", toExpress(tree, { onError: () => undefined }));
    // client errors handed to Express as well (the default answers them with switchyard's JSON:
    // test/adapters.framework-errors.test.ts)
    app.use(toExpress(tree, { clientErrors: "framework" }));
    app.get("/later", (_req, res) => {
      res.send("a later Express route");
    });
    app.get("/hello/extra", (_req, res) => {
      res.send("Express, where the tree has no route");
    });
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      caught.push(error);
      const status = (error as { status?: number }).status ?? 500;
      res.status(status).json({ caughtByExpress: (error as Error).message, status });
    });
    url = await serve(app);
  });
  beforeEach(() => {
    caught.length = 0;
  });

  test("a match answers", async () => {
    const response = await fetch(`${url}/hello`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("hello from express, path /hello");
  });

  test("no match calls next(): later Express routes answer", async () => {
    expect(await (await fetch(`${url}/later`)).text()).toBe("a later Express route");
    expect(await (await fetch(`${url}/hello/extra`)).text()).toBe("Express, where the tree has no route");
    const unmatched = await fetch(`${url}/nowhere`);
    expect(unmatched.status).toBe(404);
    expect(await unmatched.text()).toContain("Cannot GET /nowhere");
  });

  test("mounted at a prefix: routes see the path below it; Express's originalUrl keeps it", async () => {
    const response = await fetch(`${url}/api/hello`);
    expect(await response.text()).toBe("hello from express, path /hello");
    const native = (await (await fetch(`${url}/native`)).json()) as { originalUrl: string };
    expect(native.originalUrl).toBe("/native");
  });

  test("a body express.json() read is what req.json() returns", async () => {
    const response = await postJson(`${url}/parsed/json`, '{"a":[1,2]}');
    expect(await response.json()).toEqual({ got: { a: [1, 2] } });
  });

  test("a body express.text() read is what req.text() and req.json() return", async () => {
    expect(await (await postJson(`${url}/parsed/text`, "plain words", "text/plain")).json()).toEqual({
      text: "plain words",
    });
    expect(await (await postJson(`${url}/parsed/json`, '{"from":"text"}', "text/plain")).json()).toEqual({
      got: { from: "text" },
    });
  });

  test("a body express.raw() read is what req.bytes() returns", async () => {
    const response = await fetch(`${url}/parsed/bytes`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array([0, 255, 7]),
    });
    expect(await response.json()).toEqual({ bytes: [0, 255, 7] });
  });

  test("a placeholder body over an unread stream (Express 4's body-parser sets {}) is not taken for the body", async () => {
    const response = await fetch(`${url}/placeholder/bytes`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array([0, 255, 7]),
    });
    expect(await response.json()).toEqual({ bytes: [0, 255, 7] });
  });

  test("without a body parser, the body is read from the request stream", async () => {
    expect(await (await postJson(`${url}/json`, '{"a":1}')).json()).toEqual({ got: { a: 1 } });
  });

  test("a handler's error goes to Express's error handler, the same error", async () => {
    const response = await fetch(`${url}/throw`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ caughtByExpress: "handler failed", status: 500 });
    expect(caught).toHaveLength(1);
    expect(caught[0]).toBeInstanceOf(Error);
  });

  test("clientErrors 'framework': an HttpError keeps its status in Express's error handler", async () => {
    const response = await fetch(`${url}/teapot`);
    expect(response.status).toBe(418);
    expect(caught[0]).toBeInstanceOf(HttpError);
    expect(await response.json()).toEqual({ caughtByExpress: "short and stout", status: 418 });
  });

  test("clientErrors 'framework': malformed JSON (no body parser) reaches Express's error handler as a 400", async () => {
    const response = await postJson(`${url}/json`, "{nope");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { caughtByExpress: string }).caughtByExpress).toMatch(
      /^request body is not valid JSON/,
    );
  });

  test("with onError given, the pipeline answers and Express's error handler is not called", async () => {
    const failed = await fetch(`${url}/answered/throw`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe("Internal Server Error");
    const teapotAnswer = await fetch(`${url}/answered/teapot`);
    expect(teapotAnswer.status).toBe(418);
    expect(teapotAnswer.headers.get("x-reason")).toBe("tea");
    expect(await teapotAnswer.json()).toEqual({ error: "short and stout" });
    expect(caught).toEqual([]);
  });

  test("expressRequest and nodeRequest give Express's req; fetchRequest and koaContext throw a TypeError", async () => {
    const native = await (await fetch(`${url}/native`)).json();
    expect(native).toEqual({
      node: "IncomingMessage",
      express: "IncomingMessage",
      fetch: "TypeError",
      koa: "TypeError",
      marker: "set upstream",
      originalUrl: "/native",
    });
  });
});

describe("Koa 3 middleware", () => {
  const koaErrors: unknown[] = [];
  const answeredKoaErrors: unknown[] = [];
  const reported: unknown[] = [];
  let url: string;
  let defaultsUrl: string;
  let answeredUrl: string;
  beforeAll(async () => {
    const app = new Koa();
    app.on("error", (error: unknown) => koaErrors.push(error));
    app.use(async (ctx, next) => {
      ctx.state.marker = "set upstream";
      try {
        await next();
      } catch (error) {
        const status = (error as { status?: number }).status ?? 500;
        ctx.status = status;
        ctx.body = { caughtByKoa: (error as Error).message, status };
      }
    });
    app.use(bodyParser({ enableTypes: ["json", "text"] }));
    app.use(
      toKoa(
        alt(
          tree,
          method(
            GET,
            path(
              "/native",
              pathEnd((req) => ({
                ...accessorsOf(req),
                marker: (koaContext(req) as unknown as { state: { marker: string } }).state.marker,
              })),
            ),
          ),
        ),
        { clientErrors: "framework" },
      ),
    );
    app.use(async (ctx, next) => {
      if (ctx.path === "/later") ctx.body = "a later Koa middleware";
      else await next();
    });
    url = await serve(app.callback());

    // Koa's own error handling: no try/catch upstream
    const plain = new Koa();
    plain.on("error", (error: unknown) => koaErrors.push(error));
    plain.use(toKoa(tree, { clientErrors: "framework" }));
    defaultsUrl = await serve(plain.callback());

    const answered = new Koa();
    answered.on("error", (error: unknown) => answeredKoaErrors.push(error));
    answered.use(toKoa(tree, { onError: (error) => void reported.push(error) }));
    answeredUrl = await serve(answered.callback());
  });
  beforeEach(() => {
    koaErrors.length = 0;
    answeredKoaErrors.length = 0;
    reported.length = 0;
  });

  test("a match answers", async () => {
    expect(await (await fetch(`${url}/hello`)).text()).toBe("hello from koa, path /hello");
  });

  test("no match awaits next(): a later middleware answers", async () => {
    expect(await (await fetch(`${url}/later`)).text()).toBe("a later Koa middleware");
    const unmatched = await fetch(`${url}/nowhere`);
    expect(unmatched.status).toBe(404);
    expect(await unmatched.text()).toBe("Not Found");
  });

  test("a body @koa/bodyparser read is what req.json() and req.text() return", async () => {
    expect(await (await postJson(`${url}/json`, '{"a":[1,2]}')).json()).toEqual({ got: { a: [1, 2] } });
    expect(await (await postJson(`${url}/text`, "plain words", "text/plain")).json()).toEqual({ text: "plain words" });
  });

  test("a body @koa/bodyparser skipped (it sets {} without reading) is read from the request stream", async () => {
    const response = await fetch(`${url}/bytes`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array([0, 255, 7]),
    });
    expect(await response.json()).toEqual({ bytes: [0, 255, 7] });
  });

  test("a handler's error is thrown on to Koa (client errors too, with clientErrors 'framework'): upstream middleware catches the same error", async () => {
    const response = await fetch(`${url}/throw`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ caughtByKoa: "handler failed", status: 500 });
    const teapotAnswer = await fetch(`${url}/teapot`);
    expect(teapotAnswer.status).toBe(418);
    expect(await teapotAnswer.json()).toEqual({ caughtByKoa: "short and stout", status: 418 });
  });

  test("Koa's own error handling (clientErrors 'framework'): an HttpError's status, headers and exposed message; a generic 500 otherwise", async () => {
    const teapotAnswer = await fetch(`${defaultsUrl}/teapot`);
    expect(teapotAnswer.status).toBe(418);
    expect(teapotAnswer.headers.get("x-reason")).toBe("tea");
    expect(await teapotAnswer.text()).toBe("short and stout");
    const failed = await fetch(`${defaultsUrl}/throw`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe("Internal Server Error");
    expect(koaErrors.map((error) => (error as Error).message)).toEqual(["short and stout", "handler failed"]);
  });

  test("with onError given, the pipeline answers and onError is told, Koa is not", async () => {
    const failed = await fetch(`${answeredUrl}/throw`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe("Internal Server Error");
    expect(reported.map((error) => (error as Error).message)).toEqual(["handler failed"]);
    expect(answeredKoaErrors).toEqual([]);
  });

  test("a stream failing mid-way is told to onError when it is given, and to Koa's error event otherwise", async () => {
    await expect(fetch(`${answeredUrl}/cut`).then((response) => response.text())).rejects.toThrow();
    expect(reported.map((error) => (error as Error).message)).toEqual(["mid-way"]);
    // (the stream errors inside Koa as well, so Koa's error event hears of it there too)
    reported.length = 0;
    koaErrors.length = 0;
    await expect(fetch(`${defaultsUrl}/cut`).then((response) => response.text())).rejects.toThrow();
    expect(reported).toEqual([]);
    // Koa emits it from two places of its own (the stream's error and the response's end)
    expect(new Set(koaErrors.map((error) => (error as Error).message))).toEqual(new Set(["mid-way"]));
  });

  test("koaContext gives the ctx upstream middleware saw; nodeRequest, expressRequest and fetchRequest throw a TypeError", async () => {
    expect(await (await fetch(`${url}/native`)).json()).toEqual({
      node: "TypeError",
      express: "TypeError",
      fetch: "TypeError",
      koa: "object",
      marker: "set upstream",
    });
  });
});

describe("node:http, Fetch and inject accessors", () => {
  const native = method(
    GET,
    path(
      "/native",
      pathEnd((req) => accessorsOf(req)),
    ),
  );

  test("nodeRequest gives the IncomingMessage; the others throw a TypeError", async () => {
    const url = await serve(toApplication(native));
    expect(await (await fetch(`${url}/native`)).json()).toEqual({
      node: "IncomingMessage",
      fetch: "TypeError",
      express: "TypeError",
      koa: "TypeError",
    });
  });

  test("fetchRequest gives the very Request the handler was called with; the others throw a TypeError", async () => {
    let given: Request | undefined;
    const handler = toFetch(
      method(
        GET,
        path(
          "/native",
          pathEnd((req) => ({ same: fetchRequest(req) === given, ...accessorsOf(req) })),
        ),
      ),
    );
    given = new Request("http://localhost/native");
    expect(await (await handler(given)).json()).toEqual({
      same: true,
      node: "TypeError",
      fetch: "Request",
      express: "TypeError",
      koa: "TypeError",
    });
  });

  test("under inject, every accessor throws a TypeError", async () => {
    const response = await inject(native, { url: "/native" });
    expect(JSON.parse(response.body)).toEqual({
      node: "TypeError",
      fetch: "TypeError",
      express: "TypeError",
      koa: "TypeError",
    });
  });
});

describe("Fetch handler", () => {
  test("a route that answers synchronously gets its Response at once; an asynchronous one, a promise of it; no match, a 404 at once", async () => {
    const handler = toFetch(
      alt(
        method(
          GET,
          path(
            "/sync",
            pathEnd(() => "now"),
          ),
        ),
        method(
          GET,
          path(
            "/async",
            pathEnd(async () => "later"),
          ),
        ),
        method(
          GET,
          path(
            "/stream",
            pathEnd(() =>
              reply({
                body: (async function* () {
                  yield "chunk";
                })(),
              }),
            ),
          ),
        ),
      ),
    );
    const now = handler(new Request("http://localhost/sync"));
    expect(now).toBeInstanceOf(Response);
    expect(await (now as Response).text()).toBe("now");
    const missing = handler(new Request("http://localhost/none"));
    expect(missing).toBeInstanceOf(Response);
    expect((missing as Response).status).toBe(404);
    const later = handler(new Request("http://localhost/async"));
    expect(later).toBeInstanceOf(Promise);
    expect(await (await later).text()).toBe("later");
    // a streamed body is a ReadableStream made asynchronously: a promise too
    const streamed = handler(new Request("http://localhost/stream"));
    expect(streamed).toBeInstanceOf(Promise);
    expect(await (await streamed).text()).toBe("chunk");
  });

  test("a synchronous handler that throws gets its 500 at once, and the next request is served", async () => {
    const reported: unknown[] = [];
    const handler = toFetch(
      alt(
        method(
          GET,
          path(
            "/boom",
            pathEnd(() => {
              throw new Error("boom");
            }),
          ),
        ),
        method(
          GET,
          path(
            "/fine",
            pathEnd(() => "fine"),
          ),
        ),
      ),
      { onError: (error) => void reported.push(error) },
    );
    const failed = handler(new Request("http://localhost/boom"));
    expect(failed).toBeInstanceOf(Response);
    expect((failed as Response).status).toBe(500);
    expect(reported.map((error) => (error as Error).message)).toEqual(["boom"]);
    expect(await (await handler(new Request("http://localhost/fine"))).text()).toBe("fine");
  });

  test("a Request made by hand with a fragment is routed without it", async () => {
    const handler = toFetch(
      method(
        GET,
        path(
          "/page",
          pathEnd((req) => ({ url: req.url, query: [...req.query] })),
        ),
      ),
    );
    expect(await (await handler(new Request("http://localhost/page#top"))).json()).toEqual({ url: "/page", query: [] });
    expect(await (await handler(new Request("http://localhost/page?a=1#top"))).json()).toEqual({
      url: "/page?a=1",
      query: [["a", "1"]],
    });
  });

  test("a stream failing mid-way errors the Response body and is told to onError", async () => {
    const reported: unknown[] = [];
    const handler = toFetch(tree, { onError: (error) => void reported.push(error) });
    const response = await handler(new Request("http://localhost/cut"));
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow("mid-way");
    expect(reported.map((error) => (error as Error).message)).toEqual(["mid-way"]);
  });
});
