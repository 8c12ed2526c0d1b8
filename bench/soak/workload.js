/*
 * The soak's mixed workload: each kind of request with the status it must get. Drawn round-robin, so
 * every kind gets the same share of the load.
 */
const big = "123456789012345678901234567890";

/** @type {ReadonlyArray<{ kind: string, method: string, path: string, body?: string, status: number }>} */
const WORKLOAD = [
  { kind: "hit", method: "GET", path: "/api/users/1", status: 200 },
  { kind: "hit", method: "GET", path: "/health", status: 200 },
  { kind: "typed fall-through", method: "GET", path: "/api/users/ada", status: 200 },
  { kind: "not found", method: "GET", path: "/api/users/bob", status: 404 },
  { kind: "not found", method: "GET", path: "/nothing/here?x=1", status: 404 },
  { kind: "not found", method: "GET", path: "/api/users/%E2%82%2F..", status: 404 },
  { kind: "500", method: "GET", path: "/boom/now", status: 500 },
  {
    kind: "json body",
    method: "POST",
    path: "/api/echo",
    body: JSON.stringify({ name: "x".repeat(200), tags: [1, 2, 3] }),
    status: 201,
  },
  { kind: "json body", method: "GET", path: `/api/big/${big}`, status: 200 },
];

module.exports = { WORKLOAD };
