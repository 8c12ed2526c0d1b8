import { alt, interpreter, type PipelineOptions, route, routeMismatch, type RouteNode, testClient, text, toApplication } from "../src";
import { createApp } from "../samples/functional/app";
import { startServer } from "./helpers/server";

/*
 * The opt-in 405/Allow and HEAD answers, through each adapter available (the in-memory client and a
 * real node:http server), with the compiled dispatcher and the interpreter: the same answers.
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
  return { status: r.status, allow: header("allow"), contentType: header("content-type"), contentLength: null, body: r.body };
};

const viaNodeServer: Send = async (tree, options, method, url) => {
  const server = await startServer(toApplication(tree, options));
  try {
    const r = await fetch(server.url + url, { method });
    const body = await r.text();
    return { status: r.status, allow: r.headers.get("allow"), contentType: r.headers.get("content-type"), contentLength: r.headers.get("content-length"), body };
  } finally {
    await server.close();
  }
};

const adapters: [string, Send][] = [["test client", viaTestClient], ["node:http", viaNodeServer]];
const dispatchers: [string, PipelineOptions][] = [["compiled", {}], ["interpreter", { dispatcher: interpreter }]];

describe.each(adapters)("405 and HEAD through %s", (_name, send) => {
  describe.each(dispatchers)("with the %s dispatcher", (_d, base) => {
    const app = createApp();

    test("off by default: the spec's 404, no fallback", async () => {
      expect((await send(app, base, "PUT", "/api/users")).status).toBe(404);
      expect((await send(app, base, "HEAD", "/health")).status).toBe(404);
    });

    test("methodNotAllowed: 405 with Allow listing exactly the routed methods", async () => {
      const options = { ...base, methodNotAllowed: true };
      expect(await send(app, options, "PUT", "/api/users")).toMatchObject({ status: 405, allow: "GET, POST", body: "" });
      expect(await send(app, options, "POST", "/api/users/7")).toMatchObject({ status: 405, allow: "GET, DELETE" });
      expect(await send(app, options, "HEAD", "/health")).toMatchObject({ status: 405, allow: "GET" });
      // no route for the path: still 404
      expect((await send(app, options, "PUT", "/nowhere")).status).toBe(404);
      // the method is routed, but its route declined (a guard refused): 404, not 405
      expect((await send(app, options, "DELETE", "/api/users/1")).status).toBe(404);
      // a route without a method takes every method: never a 405 there
      expect((await send(alt(route("GET /a", () => "a"), route("/a", () => routeMismatch())), options, "PUT", "/a")).status).toBe(404);
    });

    test("head: an unanswered HEAD is answered by the GET route, body dropped, headers kept", async () => {
      const options = { ...base, head: true };
      const get = await send(app, options, "GET", "/health");
      const head = await send(app, options, "HEAD", "/health");
      expect(head).toMatchObject({ status: 200, contentType: get.contentType, contentLength: get.contentLength, body: "" });
      expect((await send(app, options, "HEAD", "/nowhere")).status).toBe(404);
      // a HEAD route of its own answers first
      const own = alt(route("HEAD /h", () => text("", { headers: { "x-own": "yes" } })), route("GET /h", () => "get"));
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
