import express from "express";
import Koa from "koa";
import * as lib from "switchyard-router";
import { toFetch as toEdgeFetch } from "switchyard-router/edge";
import { toExpress } from "switchyard-router/express";
import { toFetch } from "switchyard-router/fetch";
import { toKoa } from "switchyard-router/koa";
import { toApplication } from "switchyard-router/node";
import { startServer, type TestServer } from "./helpers/server";
import { createApp, createOptions } from "./shared/behaviour.cjs";
import { cases } from "./shared/behaviour.cjs";
import {
  type Difference,
  expectCase,
  fetchInit,
  observeFetch,
  observeInject,
  observeResponse,
  runTable,
  type Send,
} from "./shared/table";

/*
 * The shared behaviour table (test/shared/behaviour.cjs) through every adapter that runs on Node:
 * inject, node:http, the Fetch handler called with Node's own Request objects, Express 5 and Koa 3,
 * the servers on 127.0.0.1; and the edge entry's Fetch handler (the interpreter, forms only when
 * given), with the form reader and without it. Bun, Deno and workerd run the same table in
 * test/runtimes.test.ts.
 */

const tree = createApp(lib);
const options = createOptions(lib);

/** Sends table requests to a server over loopback with fetch. */
function overHttp(server: TestServer): Send {
  return (request) => observeFetch(server.url + request.url, fetchInit(request));
}

/** Sends table requests to a Fetch handler with Node's own Request objects. */
function inProcess(handler: (request: Request) => Response | Promise<Response>): Send {
  return async (request) =>
    observeResponse(await handler(new Request(`http://localhost${request.url}`, fetchInit(request))));
}

describe("inject (testClient)", () => {
  const client = lib.testClient(tree, options);
  runTable(() => async (request) => observeInject(await client.request(request)));
});

describe("node:http (toApplication)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(toApplication(tree, options));
  });
  afterAll(() => server.close());
  runTable(() => overHttp(server));
});

describe("Fetch handler on Node (toFetch with Node's Request)", () => {
  const send = inProcess(toFetch(tree, options));
  runTable(() => send);
});

describe("edge Fetch handler on Node (switchyard-router/edge, forms: formReader)", () => {
  const send = inProcess(toEdgeFetch(tree, { ...options, forms: lib.formReader }));
  runTable(() => send);
});

describe("edge Fetch handler on Node without the form reader: the form routes fail, naming the option", () => {
  const errors: unknown[] = [];
  const handler = toEdgeFetch(tree, {
    ...options,
    onError: (error, request) => {
      errors.push(error);
      return options.onError?.(error, request);
    },
  });
  // every case that reads a form (the /form/ routes) is a 500 told to onError as the TypeError
  const noReader: Difference = {
    why: "req.form() and req.parts() need the form reader, which the edge entry gives only when told",
    expect: (observed) => {
      expectCase(
        {
          name: "",
          request: { url: "" },
          status: 500,
          headers: { "content-type": "text/plain; charset=utf-8" },
          text: "Internal Server Error",
        },
        observed,
      );
      expect(errors.map(String)).toEqual([
        expect.stringMatching(
          /^TypeError: req\.(form|parts)\(\) needs the form reader: toFetch\(tree, \{ forms: formReader \}\)/,
        ),
      ]);
    },
  };
  const formCases = cases.filter((c) => c.request.url.startsWith("/form/"));
  const send = inProcess(handler);
  runTable(
    () => (request) => {
      errors.length = 0; // each case sees only its own errors
      return send(request);
    },
    Object.fromEntries(formCases.map((c) => [c.name, noReader])),
  );
});

describe("Express 5 (toExpress)", () => {
  let server: TestServer;
  beforeAll(async () => {
    const app = express();
    app.use(toExpress(tree, options));
    // no route matched: the app's own last word, an empty 404 like the other adapters'
    app.use((_req: express.Request, res: express.Response) => {
      res.status(404).end();
    });
    server = await startServer(app);
  });
  afterAll(() => server.close());
  runTable(() => overHttp(server));
});

describe("Koa 3 (toKoa)", () => {
  let server: TestServer;
  beforeAll(async () => {
    const app = new Koa();
    // a stream failing mid-way errors inside Koa too, which would log it: onError was told already
    app.on("error", () => undefined);
    app.use(toKoa(tree, options));
    // no route matched: the app's own last word, an empty 404 like the other adapters'
    app.use((ctx) => {
      ctx.status = 404;
      ctx.body = "";
    });
    server = await startServer(app.callback());
  });
  afterAll(() => server.close());
  runTable(() => overHttp(server));
});
