/*
 * The API every framework benchmark app serves (issue 27), and how it is checked and loaded:
 * - GET /users/:id, an integer id → 200 {"id":7,"name":"user 7"} (a non-integer id is not a user);
 * - GET /users?page=N, a required integer query → 200 {"page":N,"users":[]}, 400 when not an integer;
 * - POST /users with a JSON body {name: 1–40 characters, age: integer ≥ 0} → 201 {"id":1,...body},
 *   400 when invalid;
 * - 17 filler routes (FILLER), each answering 2xx {"route":"METHOD /path/:var"}, so that routing is not
 *   trivial: they share the /users prefix and each other's.
 */

/** The filler routes, in the `:var` syntax; every app registers these 17 after its three real routes. */
const FILLER = [
  ["GET", "/health"],
  ["GET", "/version"],
  ["GET", "/users/:id/posts"],
  ["GET", "/users/:id/followers"],
  ["PUT", "/users/:id"],
  ["DELETE", "/users/:id"],
  ["GET", "/posts"],
  ["POST", "/posts"],
  ["GET", "/posts/:id"],
  ["PATCH", "/posts/:id"],
  ["GET", "/posts/:id/comments"],
  ["POST", "/posts/:id/comments"],
  ["GET", "/tags"],
  ["GET", "/tags/:tag"],
  ["GET", "/orgs/:org"],
  ["GET", "/orgs/:org/members"],
  ["GET", "/orgs/:org/repos"],
];

/** A filler route's answer body. */
const fillerBody = (method, path) => ({ route: `${method} ${path}` });

/** The validation limits of the POST /users body (the DTO, the schemas and the hand check share them). */
const NAME_MIN = 1;
const NAME_MAX = 40;

const JSON_HEADERS = { "content-type": "application/json" };
const VALID = JSON.stringify({ name: "Ada", age: 36 });
const INVALID = JSON.stringify({ name: "", age: -1 });

/** The timed rows: one request each, sent over and over by autocannon. */
const ROWS = [
  { name: "GET /users/7", method: "GET", path: "/users/7", status: 200 },
  { name: "POST /users valid → 201", method: "POST", path: "/users", headers: JSON_HEADERS, body: VALID, status: 201 },
  {
    name: "POST /users invalid → 400",
    method: "POST",
    path: "/users",
    headers: JSON_HEADERS,
    body: INVALID,
    status: 400,
  },
];

/**
 * What an app must answer before it is timed: every row, the query route, the refusals, and every
 * filler route. `json` is the exact body expected; `status` a number, or "2xx".
 */
/** A POST /users with this body, which the app must refuse with a 400. */
const refused = (user) => ({
  method: "POST",
  path: "/users",
  headers: JSON_HEADERS,
  body: JSON.stringify(user),
  status: 400,
});

const CHECKS = [
  { method: "GET", path: "/users/7", status: 200, json: { id: 7, name: "user 7" } },
  { method: "GET", path: "/users/123456", status: 200, json: { id: 123456, name: "user 123456" } },
  { method: "GET", path: "/users?page=2", status: 200, json: { page: 2, users: [] } },
  { method: "GET", path: "/users?page=two", status: 400 },
  {
    method: "POST",
    path: "/users",
    headers: JSON_HEADERS,
    body: VALID,
    status: 201,
    json: { id: 1, name: "Ada", age: 36 },
  },
  { method: "POST", path: "/users", headers: JSON_HEADERS, body: INVALID, status: 400 },
  // each rule of the body alone; not a name of another type: Fastify's default Ajv coerces body types
  // ({"name":7} becomes "7"), and the benchmark keeps each framework's defaults
  refused({ name: "", age: 1 }),
  refused({ name: "x".repeat(NAME_MAX + 1), age: 1 }),
  refused({ name: "Ada", age: -1 }),
  refused({ name: "Ada", age: 1.5 }),
  refused({ name: "Ada" }),
  ...FILLER.map(([method, path]) => ({
    method,
    path: path.replace(/:(\w+)/g, "x$1"),
    status: "2xx",
    json: fillerBody(method, path),
  })),
];

module.exports = { FILLER, fillerBody, NAME_MIN, NAME_MAX, ROWS, CHECKS };
