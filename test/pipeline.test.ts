import express from "express";
import Koa from "koa";
import path from "node:path";
import { createApp } from "../samples/functional/app";
import {
  alt,
  checkUnreachable,
  guard,
  HttpError,
  inject,
  interpreter,
  json,
  methodFallbacks,
  pipeline,
  type PipelineOptions,
  route,
  routeMismatch,
  type RouteNode,
  testClient,
  text,
  toApplication,
} from "../src";
import { toExpress } from "../src/adapters/express";
import { toFetch } from "../src/adapters/fetch";
import { toKoa } from "../src/adapters/koa";
import { eventually, openFds } from "./helpers/eventually";
import { runNode } from "./helpers/node-child";
import { startServer, type TestServer } from "./helpers/server";

/*
 * The pipeline's options (PipelineOptions: every adapter takes them and runs the same pipeline), each
 * with its rule and what a bad value does: onError, bodyLimit, requestTimeout, fallback (methodNotAllowed
 * and head), and the unreachable check before it. A rule is checked through inject where the adapter adds nothing, through a
 * node:http server where the wire matters (a socket, a timeout, a process that must not see an
 * unhandled rejection), and the opt-in 405/HEAD answers through every adapter with both dispatchers.
 * (The shared behaviour table, test/shared/behaviour.cjs, runs its bodyLimit, 405 and HEAD cases on
 * every adapter and runtime too.)
 */

async function serve(tree: RouteNode, options: PipelineOptions = {}): Promise<TestServer> {
  return startServer(toApplication(tree, { onError: () => undefined, ...options }));
}

describe("onError", () => {
  test("told of every error a handler or guard throws, with the request; a value that is not a Reply is ignored", async () => {
    const told: Array<{ error: unknown; method: string; url: string }> = [];
    const boom = new Error("boom");
    const tree = alt(
      route("GET /throws", () => {
        throw boom;
      }),
      route("POST /rejects", async () => Promise.reject(boom)),
      route("GET /http", () => {
        throw new HttpError(429, "slow down");
      }),
      // last: a guard runs for every request that reaches it
      guard(
        () => {
          throw boom;
        },
        route("GET /guarded", () => "never"),
      ),
    );
    const options: PipelineOptions = {
      onError: (error, request) => {
        told.push({ error, method: request.method, url: request.url });
        return "not a reply";
      },
    };
    const throws = await inject(tree, { url: "/throws?x=1" }, options);
    expect([throws.status, throws.body]).toEqual([500, "Internal Server Error"]);
    expect((await inject(tree, { method: "POST", url: "/rejects" }, options)).status).toBe(500);
    expect((await inject(tree, { url: "/guarded" }, options)).status).toBe(500);
    // an HttpError nobody answered answers with its own status and message
    const http = await inject(tree, { url: "/http" }, options);
    expect([http.status, JSON.parse(http.body)]).toEqual([429, { error: "slow down" }]);
    expect(told.map((t) => [t.method, t.url, t.error === boom])).toEqual([
      ["GET", "/throws?x=1", true],
      ["POST", "/rejects", true],
      ["GET", "/guarded", true],
      ["GET", "/http", false],
    ]);
    expect(told[3]!.error).toBeInstanceOf(HttpError);
  });

  test("without onError (the default): server errors are logged with console.error, client errors (4xx) are not", async () => {
    const tree = alt(
      route("GET /boom", () => {
        throw new Error("boom");
      }),
      route("GET /teapot", () => {
        throw new HttpError(418, "short and stout");
      }),
    );
    const log = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      expect((await inject(tree, { url: "/teapot" })).status).toBe(418);
      expect(log).not.toHaveBeenCalled();
      expect((await inject(tree, { url: "/boom" })).status).toBe(500);
      expect(log).toHaveBeenCalledTimes(1);
      expect(log).toHaveBeenCalledWith("switchyard-router: GET /boom failed:", expect.any(Error));
    } finally {
      log.mockRestore();
    }
  });

  test("an onError that answers decides the reply (custom error bodies)", async () => {
    const server = await serve(
      alt(
        route("GET /boom", () => {
          throw new Error("secret detail");
        }),
      ),
      { onError: async (error) => json({ oops: (error as Error).message.length }, { status: 502 }) },
    );
    try {
      const res = await fetch(`${server.url}/boom`);
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ oops: "secret detail".length });
    } finally {
      await server.close();
    }
  });

  test("an onError that throws does not take the server down: the generic 500", async () => {
    const fragile = await serve(
      alt(
        route("GET /throw", () => {
          throw new Error("kaboom");
        }),
        route("GET /hello", () => "hello"),
      ),
      {
        onError: () => {
          throw new Error("reporter broke");
        },
      },
    );
    try {
      expect((await fetch(`${fragile.url}/throw`)).status).toBe(500);
      expect((await fetch(`${fragile.url}/hello`)).status).toBe(200);
    } finally {
      await fragile.close();
    }
  });

  const ONERROR_REJECTS = path.join(__dirname, "fixtures/onerror-rejects.cjs");

  test("an async onError that rejects is contained: the 500 (or the cut) goes out, nothing is unhandled (in a process of its own)", async () => {
    // jest's `process` is a sandbox copy that never hears "unhandledRejection": the server runs in a
    // child process that an unhandled rejection would end with code 1
    const run = await runNode(ONERROR_REJECTS);
    expect({ code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ code: 0, signal: null, stderr: "" });
    expect(JSON.parse(run.stdout)).toEqual({
      node: [500, 500, "cut", 200, 500],
      inject: [500, 500, "cut", 200, 500],
      // each failure told once: /boom, /async-boom, /cut and /boom again, through both
      told: 8,
    });
  });

  test("that child process does end on an unhandled rejection (one planted there)", async () => {
    const run = await runNode(ONERROR_REJECTS, { env: { PLANT_UNHANDLED_REJECTION: "1" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/planted unhandled rejection/);
  });
});

describe("bodyLimit", () => {
  const size = alt(route("POST /size", async (request) => ({ size: (await request.bytes()).byteLength })));
  const TOO_LARGE = (limit: number) => ({ error: `request body is larger than the limit of ${limit} bytes` });

  test("the most bytes bytes()/text()/json() read: the limit is read, one byte more is a 413 naming it", async () => {
    const answer = async (body: string, headers?: Record<string, string>) => {
      const response = await inject(size, { method: "POST", url: "/size", body, headers }, { bodyLimit: 10 });
      return [response.status, JSON.parse(response.body)];
    };
    expect(await answer("x".repeat(10))).toEqual([200, { size: 10 }]);
    expect(await answer("x".repeat(11))).toEqual([413, TOO_LARGE(10)]);
    expect(await answer("é".repeat(6))).toEqual([413, TOO_LARGE(10)]); // bytes, not characters: 12
    // a declared content-length over the limit is refused before anything is read
    expect(await answer("x", { "content-length": "11" })).toEqual([413, TOO_LARGE(10)]);
  });

  test("default 1 MiB; 0 allows only an empty body", async () => {
    const mib = 1024 * 1024;
    expect((await inject(size, { method: "POST", url: "/size", body: new Uint8Array(mib) })).body).toBe(
      `{"size":${mib}}`,
    );
    expect((await inject(size, { method: "POST", url: "/size", body: new Uint8Array(mib + 1) })).status).toBe(413);
    expect((await inject(size, { method: "POST", url: "/size" }, { bodyLimit: 0 })).body).toBe('{"size":0}');
    expect((await inject(size, { method: "POST", url: "/size", body: "x" }, { bodyLimit: 0 })).status).toBe(413);
  });

  test.each([-1, Number.NaN, Number.POSITIVE_INFINITY, "10", null])(
    "a bodyLimit of %p is refused when the app is made",
    (limit) => {
      expect(() => toApplication(alt(), { bodyLimit: limit as number })).toThrow(
        /^bodyLimit must be a finite number of bytes ≥ 0, got /,
      );
      expect(() => toApplication(alt(), { bodyLimit: limit as number })).toThrow(RangeError);
    },
  );
});

describe("requestTimeout", () => {
  const never = (): Promise<never> => new Promise<never>(() => undefined);

  test("with requestTimeout: a 503 when the handler has not settled in time; the server goes on", async () => {
    const server = await serve(
      alt(
        route("GET /hang", never),
        route("GET /ok", () => "fine"),
      ),
      { requestTimeout: 100 },
    );
    try {
      const res = await fetch(`${server.url}/hang`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(/request timeout of 100 ms/);
      expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
    } finally {
      await server.close();
    }
  });

  test("an answer in time is the answer, async or not; the 503 goes to onError like any error", async () => {
    const told: unknown[] = [];
    const tree = alt(
      route("GET /soon", async () => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return "soon";
      }),
      route("GET /now", () => "now"),
      route("GET /hang", never),
    );
    const options: PipelineOptions = { requestTimeout: 200, onError: (error) => void told.push(error) };
    expect((await inject(tree, { url: "/soon" }, options)).body).toBe("soon");
    expect((await inject(tree, { url: "/now" }, options)).body).toBe("now");
    expect(told).toEqual([]);
    expect((await inject(tree, { url: "/hang" }, options)).status).toBe(503);
    expect(told).toHaveLength(1);
    expect(told[0]).toBeInstanceOf(HttpError);
  });

  test("without requestTimeout (the default): the request waits; a client that gives up frees its socket", async () => {
    const server = await serve(
      alt(
        route("GET /hang", never),
        route("GET /ok", () => "fine"),
      ),
    );
    try {
      const before = openFds();
      const gaveUp = await fetch(`${server.url}/hang`, { signal: AbortSignal.timeout(200) }).then(
        () => "answered",
        (error: Error) => error.name,
      );
      expect(gaveUp).toBe("TimeoutError");
      // fetch's own client keeps what it opened on first use for its keep-alive time (4 s): wait that out
      expect(await eventually(openFds, (n) => n <= before, 10_000)).toBeLessThanOrEqual(before);
      expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
    } finally {
      await server.close();
    }
  }, 15_000);

  test.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, "100"])(
    "a requestTimeout of %p is refused when the app is made",
    (ms) => {
      expect(() => toApplication(alt(), { requestTimeout: ms as number })).toThrow(
        /^requestTimeout must be a positive number of milliseconds, got /,
      );
      expect(() => toApplication(alt(), { requestTimeout: ms as number })).toThrow(RangeError);
    },
  );
});

/*
 * methodNotAllowed and head: the opt-in 405/Allow and HEAD answers through every adapter (the
 * in-memory client, node:http, the Fetch handler, Express and Koa over loopback), with the compiled
 * dispatcher and the interpreter.
 */

interface Answer {
  readonly status: number;
  readonly allow: string | null;
  readonly contentType: string | null;
  readonly contentLength: string | null;
  readonly body: string;
}

type Send = (tree: RouteNode, options: PipelineOptions, method: string, url: string) => Promise<Answer>;

const viaTestClient: Send = async (tree, options, method, url) => {
  const r = await testClient(tree, options).request({ method, url });
  const header = (name: string) => (r.headers[name] === undefined ? null : String(r.headers[name]));
  return {
    status: r.status,
    allow: header("allow"),
    contentType: header("content-type"),
    contentLength: header("content-length"),
    body: r.body,
  };
};

async function answerOf(response: Response): Promise<Answer> {
  const h = response.headers;
  return {
    status: response.status,
    allow: h.get("allow"),
    contentType: h.get("content-type"),
    contentLength: h.get("content-length"),
    body: await response.text(),
  };
}

/** Sends the request over loopback to a server running `listener`, closed afterwards. */
function viaServer(
  listenerFor: (tree: RouteNode, options: PipelineOptions) => Parameters<typeof startServer>[0],
): Send {
  return async (tree, options, method, url) => {
    const server: TestServer = await startServer(listenerFor(tree, options));
    try {
      return await answerOf(await fetch(server.url + url, { method }));
    } finally {
      await server.close();
    }
  };
}

const viaFetchHandler: Send = async (tree, options, method, url) =>
  answerOf(await toFetch(tree, options)(new Request(`http://127.0.0.1${url}`, { method })));

const adapters: [string, Send][] = [
  ["test client", viaTestClient],
  ["node:http", viaServer((tree, options) => toApplication(tree, options))],
  ["the Fetch handler", viaFetchHandler],
  ["Express", viaServer((tree, options) => express().use(toExpress(tree, options)))],
  ["Koa", viaServer((tree, options) => new Koa().use(toKoa(tree, options)).callback())],
];
const dispatchers: [string, PipelineOptions][] = [
  ["compiled", {}],
  ["interpreter", { dispatcher: interpreter }],
];

describe.each(adapters)("methodNotAllowed and head through %s", (_name, send) => {
  describe.each(dispatchers)("with the %s dispatcher", (_d, base) => {
    const app = createApp();

    test("off by default: the spec's 404, no fallback", async () => {
      expect((await send(app, base, "PUT", "/api/users")).status).toBe(404);
      expect((await send(app, base, "HEAD", "/health")).status).toBe(404);
    });

    test("methodNotAllowed: 405 with Allow listing exactly the routed methods", async () => {
      const options = { ...base, fallback: methodFallbacks({ methodNotAllowed: true }) };
      expect(await send(app, options, "PUT", "/api/users")).toMatchObject({
        status: 405,
        allow: "GET, POST",
        body: "",
      });
      expect(await send(app, options, "POST", "/api/users/7")).toMatchObject({ status: 405, allow: "GET, DELETE" });
      expect(await send(app, options, "HEAD", "/health")).toMatchObject({ status: 405, allow: "GET" });
      // no route for the path: still 404
      expect((await send(app, options, "PUT", "/nowhere")).status).toBe(404);
      // the method is routed, but its route declined (a guard refused): 404, not 405
      expect((await send(app, options, "DELETE", "/api/users/1")).status).toBe(404);
      // a route without a method takes every method: never a 405 there
      expect(
        (
          await send(
            alt(
              route("GET /a", () => "a"),
              route("/a", () => routeMismatch()),
            ),
            options,
            "PUT",
            "/a",
          )
        ).status,
      ).toBe(404);
    });

    test("head: an unanswered HEAD is answered by the GET route, body dropped, headers kept", async () => {
      const options = { ...base, fallback: methodFallbacks({ head: true }) };
      const get = await send(app, options, "GET", "/health");
      const head = await send(app, options, "HEAD", "/health");
      // the length the GET's body has, whether or not the adapter states it on the GET
      expect(head).toMatchObject({
        status: 200,
        contentType: get.contentType,
        contentLength: String(new TextEncoder().encode(get.body).length),
        body: "",
      });
      expect((await send(app, options, "HEAD", "/nowhere")).status).toBe(404);
      // the length in bytes, not in UTF-16 units: é is two, 😀 four
      const wide = route("GET /wide", () => "é😀");
      expect((await send(wide, options, "HEAD", "/wide")).contentLength).toBe("6");
      // a HEAD route of its own answers first
      const own = alt(
        route("HEAD /h", () => text("", { headers: { "x-own": "yes" } })),
        route("GET /h", () => "get"),
      );
      expect((await send(own, options, "HEAD", "/h")).status).toBe(200);
    });

    test("both: Allow names HEAD wherever GET is routed", async () => {
      const options = { ...base, fallback: methodFallbacks({ head: true, methodNotAllowed: true }) };
      expect(await send(app, options, "PUT", "/health")).toMatchObject({ status: 405, allow: "GET, HEAD" });
      expect(await send(app, options, "PUT", "/api/users")).toMatchObject({ status: 405, allow: "GET, POST, HEAD" });
      // a HEAD whose GET route declined is a 404, as the GET is
      expect((await send(app, options, "HEAD", "/api/users/99")).status).toBe(404);
    });
  });
});

describe("methodNotAllowed and head: values other than true", () => {
  test.each([["yes"], [1], ["false"], [{}]])("%p leaves them off: the spec's 404, no fallback", async (value) => {
    const app = createApp();
    const options = { fallback: methodFallbacks({ methodNotAllowed: value, head: value } as never) };
    expect((await inject(app, { method: "PUT", url: "/api/users" }, options)).status).toBe(404);
    expect((await inject(app, { method: "HEAD", url: "/health" }, options)).status).toBe(404);
    // only true turns them on
    const on = { fallback: methodFallbacks({ methodNotAllowed: true, head: true }) };
    expect((await inject(app, { method: "PUT", url: "/api/users" }, on)).status).toBe(405);
    expect((await inject(app, { method: "HEAD", url: "/health" }, on)).status).toBe(200);
  });

  test.each([
    ["toApplication", toApplication],
    ["pipeline", pipeline],
    ["toFetch", toFetch],
    ["toExpress", toExpress],
    ["toKoa", toKoa],
  ] as [string, (tree: RouteNode, options: PipelineOptions) => unknown][])(
    "%s refuses the options they moved from, with where they went, never silently ignoring them",
    (_name, adapter) => {
      const app = createApp();
      for (const moved of [{ methodNotAllowed: true }, { head: false }])
        expect(() => adapter(app, moved as PipelineOptions)).toThrow(
          /^methodNotAllowed and head are now fallback: methodFallbacks/,
        );
      expect(() => adapter(app, { unreachable: "warn" } as PipelineOptions)).toThrow(
        /^unreachable is now a call before the app is made: checkUnreachable/,
      );
    },
  );
});

describe("unreachable", () => {
  const ok = () => "ok";

  test("startup check: off by default; warn logs, throw refuses, routes keep their order", () => {
    const tree = alt(route("GET /u/name:Text", ok), route("GET /u/me", ok));
    expect(() => toApplication(tree)).not.toThrow();
    expect(() => checkUnreachable(tree, "throw")).toThrow(
      /1 unreachable route:\n {2}#2 GET \/u\/me \(ok\): every request/,
    );
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      checkUnreachable(tree, "warn");
      expect(warn).toHaveBeenCalledWith(expect.stringContaining("#2 GET /u/me"));
    } finally {
      warn.mockRestore();
    }
    // fall-through only is fine at startup
    expect(() =>
      checkUnreachable(
        alt(
          guard(() => true, route("GET /a", ok)),
          route("GET /a", ok),
        ),
        "throw",
      ),
    ).not.toThrow();
    expect(() => checkUnreachable(tree, "loud" as never)).toThrow(/unreachable must be "ignore", "warn" or "throw"/);
  });

  test("a policy that is not ignore, warn or throw is refused, whatever the tree", () => {
    for (const tree of [alt(), alt(route("GET /a", ok))]) {
      expect(() => checkUnreachable(tree, "loud" as never)).toThrow(
        /^switchyard-router: unreachable must be "ignore", "warn" or "throw", got "loud"$/,
      );
      expect(() => checkUnreachable(tree, true as never)).toThrow(TypeError);
    }
  });
});
