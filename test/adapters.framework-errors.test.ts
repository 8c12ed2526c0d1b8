import { IsEmail, IsInt, Min } from "class-validator";
import express from "express";
import Koa from "koa";
import * as lib from "switchyard-router";
import {
  alt,
  cookieParam,
  HttpError,
  Int,
  queryParam,
  refuse,
  route,
  guard,
  unauthorized,
  type FrameworkOptions,
  type Route as Tree,
} from "switchyard-router";
import { Body, controllers, Route } from "switchyard-router/decorators";
import { toExpress } from "switchyard-router/express";
import { toKoa } from "switchyard-router/koa";
import { startServer, type TestServer } from "./helpers/server";
import { cases, createApp, createOptions } from "./shared/behaviour.cjs";
import { expectCase, fetchInit, observeFetch, type Send } from "./shared/table";

/*
 * Client errors stay structured inside Express and Koa: an HttpError below 500 (a bad query parameter
 * or cookie, an invalid DTO body, a 413, a thrown 404, a guard's 401) is answered by switchyard with its
 * JSON body — the framework's HTML (Express) or text (Koa) error answer never sees it, and nothing is
 * logged — while a 5xx and any other error still go to the framework's error path. Real Express 5 and
 * Koa 3 apps with their DEFAULT error handling (no error middleware of ours), on 127.0.0.1.
 */

class CreateUser {
  @IsEmail() email!: string;
  @IsInt() @Min(18) age!: number;
}

class Users {
  @Route("POST /users")
  create(@Body() user: CreateUser) {
    return { created: user.email };
  }
}

const tree: Tree = alt(
  route("GET /page", (req) => ({ page: queryParam(req, "page", Int) })),
  route("GET /cookie", (req) => ({ n: cookieParam(req, "n", Int) })),
  route("GET /missing", () => {
    throw new HttpError(404, "no such order", { details: { order: 7 } });
  }),
  route("POST /upload", async (req) => ({ length: (await req.bytes()).byteLength })),
  route(
    "GET /private",
    guard(
      (req) => req.headers.has("authorization") || refuse(unauthorized('Bearer realm="api"')),
      () => "private",
    ),
  ),
  route("GET /throw", () => {
    throw new Error("the database is gone");
  }),
  route("GET /unavailable", () => {
    throw new HttpError(503, "maintenance window, secret detail");
  }),
  controllers([Users]),
);

const OPTIONS: FrameworkOptions = { bodyLimit: 64 };

/** Two turns of the event loop: Express's final handler logs an error on the turn after it answered. */
const settled = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));
const JSON_TYPE = "application/json; charset=utf-8";

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));
async function serve(listener: Parameters<typeof startServer>[0]): Promise<string> {
  const server = await startServer(listener);
  servers.push(server);
  return server.url;
}

/** The client errors every default app must answer with switchyard's JSON, and what each carries. */
const CLIENT_ERRORS: [string, () => [string, RequestInit], number, unknown][] = [
  [
    "a bad query parameter",
    () => ["/page?page=x", {}],
    400,
    {
      error: 'the query parameter "page" is not a valid Int',
      errors: [{ in: "query", field: "page", constraint: "Int", message: '"x" is not a valid Int' }],
    },
  ],
  [
    "a bad cookie",
    () => ["/cookie", { headers: { cookie: "n=seven" } }],
    400,
    {
      error: 'the cookie "n" is not a valid Int',
      errors: [{ in: "cookie", field: "n", constraint: "Int", message: '"seven" is not a valid Int' }],
    },
  ],
  [
    "an invalid DTO body",
    () => [
      "/users",
      { method: "POST", headers: { "content-type": "application/json" }, body: '{"email":"nope","age":12}' },
    ],
    400,
    {
      error: expect.any(String),
      errors: [
        expect.objectContaining({ in: "body", field: "email", constraint: "isEmail" }),
        expect.objectContaining({ in: "body", field: "age", constraint: "min" }),
      ],
    },
  ],
  [
    "a body over the limit",
    () => ["/upload", { method: "POST", body: "x".repeat(65) }],
    413,
    { error: "request body is larger than the limit of 64 bytes" },
  ],
  ["a thrown HttpError(404)", () => ["/missing", {}], 404, { error: "no such order", order: 7 }],
  ["a guard's 401", () => ["/private", {}], 401, { error: "Unauthorized" }],
];

describe.each([
  ["Express 5", "express"],
  ["Koa 3", "koa"],
] as const)("%s with its default error handling", (_name, framework) => {
  let url: string;
  let onErrorUrl: string;
  let handOnUrl: string;
  const told: unknown[] = [];
  let logged: jest.SpyInstance;

  beforeAll(async () => {
    const make = (options: FrameworkOptions) => {
      if (framework === "express") {
        const app = express();
        // Express logs what reaches its final handler except under NODE_ENV=test: make it log, as in production
        app.set("env", "production");
        app.use(toExpress(tree, options));
        return app;
      }
      const app = new Koa();
      // no error listener of ours: Koa's own (it logs errors that are not exposed client errors)
      app.use(toKoa(tree, options));
      return app.callback();
    };
    url = await serve(make(OPTIONS));
    onErrorUrl = await serve(make({ ...OPTIONS, onError: (error) => void told.push(error) }));
    handOnUrl = await serve(make({ ...OPTIONS, clientErrors: "framework" }));
  });
  beforeEach(() => {
    told.length = 0;
    logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
  });
  afterEach(async () => {
    // the frameworks log after the answer went out (Express on the next turn): let that happen here
    await settled();
    logged.mockRestore();
  });

  test.each(CLIENT_ERRORS)(
    "%s: switchyard's JSON, its status and headers; nothing logged",
    async (_what, request, status, body) => {
      const [path, init] = request();
      const response = await fetch(url + path, init);
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toBe(JSON_TYPE);
      expect(await response.json()).toEqual(body);
      if (status === 401) expect(response.headers.get("www-authenticate")).toBe('Bearer realm="api"');
      await settled();
      expect(logged).not.toHaveBeenCalled();
    },
  );

  test("a 500 still goes to the framework: its own answer, and it logs the error", async () => {
    const response = await fetch(`${url}/throw`);
    expect(response.status).toBe(500);
    const body = await response.text();
    if (framework === "express") {
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(body).toContain("Internal Server Error");
    } else {
      expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(body).toBe("Internal Server Error");
    }
    await settled();
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toContain("the database is gone");
  });

  test("a 5xx HttpError goes to the framework too: its status, not switchyard's JSON", async () => {
    const response = await fetch(`${url}/unavailable`);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).not.toBe(JSON_TYPE);
    expect(await response.text()).not.toContain("secret detail");
  });

  test("with onError given, onError is told of client errors too, and the pipeline answers them", async () => {
    const response = await fetch(`${onErrorUrl}/page?page=x`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe(JSON_TYPE);
    expect(told).toHaveLength(1);
    expect((told[0] as HttpError).status).toBe(400);
    const failed = await fetch(`${onErrorUrl}/throw`);
    expect([failed.status, await failed.text()]).toEqual([500, "Internal Server Error"]);
    await settled();
    expect(logged).not.toHaveBeenCalled();
  });

  test('clientErrors: "framework" hands client errors on, as before', async () => {
    const response = await fetch(`${handOnUrl}/page?page=x`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).not.toBe(JSON_TYPE);
    // the framework's own answer: Express's HTML page, Koa's text (the exposed message)
    const text = await response.text();
    if (framework === "express") expect(text).toMatch(/^<!DOCTYPE html>[\s\S]*Bad Request/);
    else expect(text).toBe('the query parameter "page" is not a valid Int');
  });

  test("a clientErrors that is neither answer nor framework: a TypeError when the middleware is made", () => {
    const make = framework === "express" ? toExpress : toKoa;
    expect(() => make(tree, { clientErrors: "html" as never })).toThrow(
      new TypeError('clientErrors must be "answer" or "framework", got "html"'),
    );
  });
});

/**
 * The shared table's client-error cases (4xx with a JSON body) through Express and Koa WITHOUT
 * `onError`, their default error handling in place: the same answers as every other adapter gives.
 */
describe.each([["Express 5"], ["Koa 3"]] as const)(
  "the shared table's client errors through %s without onError",
  (name) => {
    const { onError: _onError, ...options } = createOptions(lib);
    const clientErrors = cases.filter(
      (c) =>
        c.status >= 400 &&
        c.status < 500 &&
        (c.json !== undefined || c.errorMatching !== undefined) &&
        // that answer is onError's own
        c.name !== "onError answers with its own reply",
    );
    let send: Send;
    beforeAll(async () => {
      const app = createApp(lib);
      let listener: Parameters<typeof startServer>[0];
      if (name === "Express 5") {
        const e = express();
        e.use(toExpress(app, options));
        listener = e;
      } else {
        const k = new Koa();
        k.use(toKoa(app, options));
        listener = k.callback();
      }
      const base = await serve(listener);
      send = (request) => observeFetch(base + request.url, fetchInit(request));
    });

    test("there are such cases (400, 401, 413, 418, …)", () => {
      expect(clientErrors.map((c) => c.status)).toEqual(expect.arrayContaining([400, 401, 413, 418]));
    });

    test.each(clientErrors.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
      expectCase(c, await send(c.request));
    });
  },
);
