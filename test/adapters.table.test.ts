import express from "express";
import Koa from "koa";
import * as lib from "switchyard-router";
import { toExpress } from "switchyard-router/express";
import { toFetch } from "switchyard-router/fetch";
import { toKoa } from "switchyard-router/koa";
import { toApplication } from "switchyard-router/node";
import { startServer, type TestServer } from "./helpers/server";
import { createApp, createOptions } from "./shared/behaviour.cjs";
import { fetchInit, observeFetch, observeInject, observeResponse, runTable, type Send } from "./shared/table";

/*
 * The shared behaviour table (test/shared/behaviour.cjs) through every adapter that runs on Node:
 * inject, node:http, the Fetch handler called with Node's own Request objects, Express 5 and Koa 3,
 * the servers on 127.0.0.1. Bun, Deno and workerd run the same table in test/runtimes.test.ts.
 */

const tree = createApp(lib);
const options = createOptions(lib);

/** Sends table requests to a server over loopback with fetch. */
function overHttp(server: TestServer): Send {
  return (request) => observeFetch(server.url + request.url, fetchInit(request));
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
  const handler = toFetch(tree, options);
  runTable(
    () => async (request) =>
      observeResponse(await handler(new Request(`http://localhost${request.url}`, fetchInit(request)))),
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
