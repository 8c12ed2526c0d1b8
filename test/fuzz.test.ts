import fc from "fast-check";
import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import * as lib from "../src";
import { type InjectResponse, inject, interpreter, toApplication } from "../src";
import { createTree } from "./fixtures/fuzz-tree.cjs";
import { runNode } from "./helpers/node-child";
import { startServer, type TestServer } from "./helpers/server";

/*
 * Bounded fuzz (seeded, a few seconds): hostile request targets — broken escapes, `%2F`, long and
 * empty segments, `..`, `__proto__`/`constructor` segments and labels, absolute forms, unusual methods —
 * through `inject` (compiled and interpreted) and through a real node:http server on 127.0.0.1.
 * Every request must: not throw; answer 200/204/404/500 (a 500 only from the handlers that throw on
 * purpose); leave Object.prototype as it was; answer the same compiled and interpreted; answer the
 * same through the server as through `inject`. No unhandled rejection may happen meanwhile: the same
 * requests are sent again in a node process of its own (test/fixtures/fuzz-child.cjs, the built
 * package), which an unhandled rejection ends with code 1; jest's sandboxed `process` never hears one.
 */

const RUNS = 600;

/** The tree (test/fixtures/fuzz-tree.cjs, shared with the child process), built from the sources. */
const tree = createTree(lib);

const SEGMENTS = [
  "",
  ".",
  "..",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "%5F%5Fproto%5F%5F",
  "api",
  "users",
  "items",
  "d",
  "p",
  "deep",
  "boom",
  "async-boom",
  "mismatch",
  "dav",
  "any",
  "x",
  "1",
  "-7",
  "+0",
  "9007199254740993",
  "9223372036854775808",
  "1e3",
  "2.5",
  "12e-1",
  "true",
  "FALSE",
  "123e4567-e89b-12d3-a456-426614174000",
  "2024-02-29",
  "2023-02-29",
  "%2F",
  "%2f",
  "a%2Fb",
  "%",
  "%zz",
  "%4",
  "%E2%82",
  "%E2%82a",
  "%F0%9F%98",
  "%C0%AF",
  "%ED%A0%80",
  "%FF",
  "%00",
  "%25",
  "%E2%82%AC",
  "%F4%90%80%80",
  "a+b",
  "#frag",
];
// absolute forms end in `/`, so that a random first segment is not read as (a malformed) authority
const PREFIXES = [
  "/",
  "/",
  "/",
  "http://example.com/",
  "https://h:8443/",
  "HTTP://example.com/",
  "x://h/",
  "Https://h/",
  "//",
];
/** Whole targets: near hits of the tree, and the bare absolute forms. */
const WHOLE = [
  "/boom/%E2%82",
  "/async-boom",
  "/api/users/1",
  "/api/users/%2F",
  "/p/x/y",
  "/deep/a/b/c",
  "/",
  "/dav/x",
  "http://h",
  "http://",
  "x://",
  "https://h?x=/1",
  "HTTP://h",
  "/any/..%2F../",
  "/__proto__/%5F%5Fproto%5F%5F",
];
/** Methods node:http's parser accepts (HEAD too: its body is not compared, the server sends none). */
const SERVER_METHODS = [
  "GET",
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "OPTIONS",
  "HEAD",
  "PROPFIND",
  "M-SEARCH",
  "PURGE",
];
/** Methods only `inject` can send: node:http would refuse them (or upper-case them) before routing. */
const INJECT_ONLY_METHODS = ["get", "FOO", "", "__proto__", "constructor", "toString"];

const printable = fc.string({
  unit: fc
    .integer({ min: 0x21, max: 0x7e })
    .map((c) => String.fromCharCode(c))
    .filter((c) => c !== "/" && c !== "?"),
  maxLength: 12,
});
const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 2, arbitrary: printable },
  {
    weight: 1,
    arbitrary: fc.constantFrom("x".repeat(2000), "9".repeat(2000), "%E2%82".repeat(300), "%2F".repeat(600)),
  },
);
const built = fc
  .record({
    prefix: fc.constantFrom(...PREFIXES),
    segments: fc.array(segment, { maxLength: 6 }),
    query: fc.option(fc.constantFrom("?", "?a=1", "?x=/y/z", "?%zz", "?__proto__[x]=1"), { nil: undefined }),
  })
  .map(({ prefix, segments, query }) => prefix + segments.join("/") + (query ?? ""));
const target = fc.oneof({ weight: 4, arbitrary: built }, { weight: 1, arbitrary: fc.constantFrom(...WHOLE) });

const SERVER_SEED = 10;
const INJECT_SEED = 11;
/** The requests the first property sends (fast-check draws the same ones for the same seed). */
const serverRequests = (): [string, string][] =>
  fc.sample(fc.tuple(fc.constantFrom(...SERVER_METHODS), target), { seed: SERVER_SEED, numRuns: RUNS });
/** The requests the second property sends. */
const injectRequests = (): [string, string][] =>
  fc.sample(fc.tuple(fc.constantFrom(...INJECT_ONLY_METHODS, ...SERVER_METHODS), target), {
    seed: INJECT_SEED,
    numRuns: RUNS,
  });

const QUIET = { onError: () => {} };
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
let server: TestServer;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  server = await startServer(toApplication(tree, QUIET));
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

function viaServer(method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: server.port, method, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const summary = (r: InjectResponse) => ({ status: r.status, type: r.headers["content-type"], body: r.body });

function expectSafe(response: InjectResponse, url: string): void {
  expect([200, 204, 404, 500]).toContain(response.status);
  if (response.status === 500) expect(url).toMatch(/boom/);
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
}

test(`${RUNS} hostile targets: inject (compiled ≡ interpreted) ≡ node:http server, nothing breaks`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...SERVER_METHODS), target, async (method, url) => {
      const compiled = await inject(tree, { method, url }, QUIET);
      const interpreted = await inject(tree, { method, url }, { ...QUIET, dispatcher: interpreter });
      expectSafe(compiled, url);
      expect(summary(compiled)).toEqual(summary(interpreted));
      const served = await viaServer(method, url);
      expect(served.status).toBe(compiled.status);
      if (method !== "HEAD") expect(served.body).toBe(compiled.body);
    }),
    { seed: SERVER_SEED, numRuns: RUNS },
  );
}, 60_000);

test(`${RUNS} hostile targets with methods node:http would refuse: inject alone, compiled ≡ interpreted`, async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...INJECT_ONLY_METHODS, ...SERVER_METHODS), target, async (method, url) => {
      const compiled = await inject(tree, { method, url }, QUIET);
      const interpreted = await inject(tree, { method, url }, { ...QUIET, dispatcher: interpreter });
      expectSafe(compiled, url);
      expect(summary(compiled)).toEqual(summary(interpreted));
    }),
    { seed: INJECT_SEED, numRuns: RUNS },
  );
});

test("the fuzz reaches every kind of answer (the generator is not stuck on 404s)", async () => {
  const statuses = new Set<number>();
  for (const [method, url] of serverRequests()) statuses.add((await inject(tree, { method, url }, QUIET)).status);
  expect([...statuses].sort()).toEqual([200, 204, 404, 500]);
});

const FUZZ_CHILD = path.join(__dirname, "fixtures/fuzz-child.cjs");

test(`the same ${2 * RUNS} requests in a process of their own: no unhandled rejection (it would end the process)`, async () => {
  const requests = { server: serverRequests(), inject: injectRequests() };
  const run = await runNode(FUZZ_CHILD, { input: JSON.stringify(requests), timeout: 50_000 });
  expect({ code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ code: 0, signal: null, stderr: "" });
  // every request was answered there: twice through inject, once more through the server for the first list
  const statuses = (JSON.parse(run.stdout) as { statuses: Record<string, number> }).statuses;
  expect(Object.keys(statuses).sort()).toEqual(["200", "204", "404", "500"]);
  expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(3 * RUNS + 2 * RUNS);
}, 60_000);

test("the child process does end on an unhandled rejection (one planted there)", async () => {
  const requests = { server: serverRequests().slice(0, 3), inject: [] };
  const run = await runNode(FUZZ_CHILD, {
    input: JSON.stringify(requests),
    env: { PLANT_UNHANDLED_REJECTION: "1" },
  });
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/planted unhandled rejection/);
});
