/*
 * Child process of the framework benchmark: the API (bench/frameworks/api.js) on bare node:http, routed
 * and validated by hand (the floor every framework is compared with); prints its port.
 */
const http = require("node:http");
const { FILLER, fillerBody, NAME_MAX, NAME_MIN } = require("../api.js");

const fillers = FILLER.map(([method, path]) => ({
  method,
  pattern: new RegExp(`^${path.replace(/:\w+/g, "[^/]+")}$`),
  body: JSON.stringify(fillerBody(method, path)),
}));

function send(res, status, value) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(typeof value === "string" ? value : JSON.stringify(value));
}

const isInteger = (text) => /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text));
const validUser = (u) =>
  typeof u === "object" &&
  u !== null &&
  typeof u.name === "string" &&
  u.name.length >= NAME_MIN &&
  u.name.length <= NAME_MAX &&
  Number.isInteger(u.age) &&
  u.age >= 0;

function create(req, res) {
  let text = "";
  req.setEncoding("utf8");
  req.on("data", (chunk) => {
    text += chunk;
  });
  req.on("end", () => {
    let user;
    try {
      user = JSON.parse(text);
    } catch {
      return send(res, 400, { error: "the body is not JSON" });
    }
    if (!validUser(user)) return send(res, 400, { error: "the body is invalid" });
    send(res, 201, { id: 1, name: user.name, age: user.age });
  });
}

const server = http.createServer((req, res) => {
  const query = req.url.indexOf("?");
  const path = query === -1 ? req.url : req.url.slice(0, query);
  if (path === "/users") {
    if (req.method === "POST") return create(req, res);
    if (req.method === "GET") {
      const page = new URLSearchParams(query === -1 ? "" : req.url.slice(query + 1)).get("page");
      return page !== null && isInteger(page)
        ? send(res, 200, { page: Number(page), users: [] })
        : send(res, 400, { error: "page must be an integer" });
    }
  }
  const id = /^\/users\/(\d+)$/.exec(path);
  if (id !== null && req.method === "GET") return send(res, 200, { id: Number(id[1]), name: `user ${id[1]}` });
  const filler = fillers.find((f) => f.method === req.method && f.pattern.test(path));
  if (filler !== undefined) return send(res, 200, filler.body);
  send(res, 404, { error: "not found" });
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`${server.address().port}\n`));
