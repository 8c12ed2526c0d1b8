/*
 * Child process: one HTTP server on 127.0.0.1 with the 20-route table, answering the benchmark's
 * dynamic route (`GET /posts/:postId/comments`) with a short text body. Prints its port when ready.
 * Usage: node bench/server.js <raw|switchyard|find-my-way|fastify|express|switchyard fetch|hono>
 * The last two are Fetch-API handlers served on node:http by @hono/node-server (Request in, Response
 * out): switchyard's Fetch adapter against Hono itself, over the same bridge.
 */
const http = require("node:http");
const { load, render, parts } = require("./lib/data");

const routes = load("http20").routes;
const body = (postId) => `comments of ${postId}`;
const TEXT = "text/plain; charset=utf-8";

const servers = {
  // the baseline: no router, one string split
  raw: () =>
    http.createServer((req, res) => {
      res.setHeader("content-type", TEXT);
      res.end(body(req.url.split("/")[2]));
    }),

  switchyard() {
    return http.createServer(require("../dist/src/adapters/node.js").toApplication(switchyardTree()));
  },

  "switchyard fetch"() {
    return served(require("../dist/src/adapters/fetch.js").toFetch(switchyardTree()));
  },

  hono() {
    const { Hono } = require("hono");
    const app = new Hono();
    for (const route of routes) {
      app.on(route.method, render(route.path, { param: (n) => `:${n}`, wildcard: "*" }), (c) =>
        c.text(route.id === 11 ? body(c.req.param("postId")) : ""),
      );
    }
    return served(app.fetch);
  },

  "find-my-way"() {
    const router = require("find-my-way")();
    for (const route of routes) {
      router.on(route.method, render(route.path, { param: (n) => `:${n}`, wildcard: "*" }), (req, res, params) => {
        res.setHeader("content-type", TEXT);
        res.end(route.id === 11 ? body(params.postId) : "");
      });
    }
    return http.createServer((req, res) => router.lookup(req, res));
  },

  fastify() {
    const app = require("fastify")();
    for (const route of routes) {
      app.route({
        method: route.method,
        url: render(route.path, { param: (n) => `:${n}`, wildcard: "*" }),
        handler: async (req) => (route.id === 11 ? body(req.params.postId) : ""),
      });
    }
    return app;
  },

  express() {
    const app = require("express")();
    for (const route of routes) {
      app[route.method.toLowerCase()](render(route.path, { param: (n) => `:${n}`, wildcard: "*rest" }), (req, res) => {
        res.type("text").send(route.id === 11 ? body(req.params.postId) : "");
      });
    }
    return http.createServer(app);
  },
};

/** The 20-route table as a switchyard tree. */
function switchyardTree() {
  const sy = require("../dist/src/index.js");
  return sy.alt(
    ...routes.map((route) => {
      const ps = parts(route.path);
      const handler = route.id === 11 ? (req) => body(req.vars.postId) : () => "";
      let next = ps.at(-1)?.wildcard ? handler : sy.pathEnd(handler);
      for (const p of ps.filter((q) => !q.wildcard).reverse())
        next = p.literal !== undefined ? sy.path(`/${p.literal}`, next) : sy.pathVar(p.param, sy.Text, next);
      return sy.method(route.method, next);
    }),
  );
}

/** A Fetch handler on node:http through @hono/node-server's request listener. */
function served(fetch) {
  return http.createServer(require("@hono/node-server").getRequestListener(fetch));
}

async function main() {
  const server = servers[process.argv[2]]();
  if (typeof server.listen === "function" && server.server === undefined) {
    server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
  } else {
    await server.listen({ port: 0, host: "127.0.0.1" });
    process.stdout.write(`${server.server.address().port}\n`);
  }
}

main();
