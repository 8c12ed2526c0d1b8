/*
 * Soak child process: the app under load, on 127.0.0.1. Started by soak.js with --expose-gc; tells its
 * port over IPC, then answers "sample" (collect garbage, report memory) and "stop" (report the
 * handler errors it saw, exit).
 */
const http = require("node:http");
const sy = require("../../dist/cjs/src/index.js");

const users = new Map([
  [1, { id: 1, name: "ada" }],
  [2, { id: 2, name: "grace" }],
]);
let handlerErrors = 0;

const tree = sy.alt(
  sy.route("GET /health", () => ({ status: "ok" })),
  sy.match(
    "/api",
    sy.alt(
      sy.route("GET /users/id:Int", (req) => users.get(req.vars.id) ?? sy.routeMismatch()),
      sy.route(
        "GET /users/name:Text",
        (req) =>
          [...users.values()].find((u) => u.name === req.vars.name) ??
          sy.json({ error: "no such user" }, { status: 404 }),
      ),
      sy.route("POST /echo", async (req) => sy.json({ received: await req.json() }, { status: 201 })),
      sy.route("GET /big/n:Integer", (req) => ({ n: req.vars.n, doubled: req.vars.n * 2n })),
    ),
  ),
  sy.route("GET /boom/x:Text", () => {
    throw new Error("boom");
  }),
);

const server = http.createServer(sy.toApplication(tree, { onError: () => void handlerErrors++ }));
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));

process.on("message", (message) => {
  if (message === "sample") {
    global.gc();
    const { rss, heapUsed } = process.memoryUsage();
    process.send({ rss, heapUsed });
  } else if (message === "stop") {
    server.closeAllConnections();
    server.close(() => process.send({ handlerErrors }, () => process.exit(0)));
  }
});
