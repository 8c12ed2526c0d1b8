import {
  alt,
  interpreter,
  type PipelineOptions,
  route,
  routeMismatch,
  type RouteNode,
  testClient,
  text,
  toApplication,
} from "../src";
import { createApp } from "../samples/functional/app";
import express from "express";
import Koa from "koa";
import { toExpress } from "../src/adapters/express";
import { toFetch } from "../src/adapters/fetch";
import { toKoa } from "../src/adapters/koa";
import { startServer, type TestServer } from "./helpers/server";

/*
 * The opt-in 405/Allow and HEAD answers through every adapter (the in-memory client, node:http, the
 * Fetch handler, Express and Koa over loopback), with the compiled dispatcher and the interpreter.
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

describe.each(adapters)("405 and HEAD through %s", (_name, send) => {
  describe.each(dispatchers)("with the %s dispatcher", (_d, base) => {
    const app = createApp();

    test("off by default: the spec's 404, no fallback", async () => {
      expect((await send(app, base, "PUT", "/api/users")).status).toBe(404);
      expect((await send(app, base, "HEAD", "/health")).status).toBe(404);
    });

    test("methodNotAllowed: 405 with Allow listing exactly the routed methods", async () => {
      const options = { ...base, methodNotAllowed: true };
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
      const options = { ...base, head: true };
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
      // a HEAD route of its own answers first
      const own = alt(
        route("HEAD /h", () => text("", { headers: { "x-own": "yes" } })),
        route("GET /h", () => "get"),
      );
      expect((await send(own, options, "HEAD", "/h")).status).toBe(200);
    });

    test("both: Allow names HEAD wherever GET is routed", async () => {
      const options = { ...base, head: true, methodNotAllowed: true };
      expect(await send(app, options, "PUT", "/health")).toMatchObject({ status: 405, allow: "GET, HEAD" });
      expect(await send(app, options, "PUT", "/api/users")).toMatchObject({ status: 405, allow: "GET, POST, HEAD" });
      // a HEAD whose GET route declined is a 404, as the GET is
      expect((await send(app, options, "HEAD", "/api/users/99")).status).toBe(404);
    });
  });
});
