import "reflect-metadata";
import { z } from "zod";
import "../decorators";
import { alt, described, inject, route, type PipelineOptions } from "../src";
import { toApplication } from "../src/adapters/node";
import { startServer, type TestServer } from "./helpers/server";

/*
 * Hostile handler results (issue 24): a value JSON cannot write, or whose writing throws, is a 500
 * told to onError, and the server goes on; a large but legal one is sent. Through inject and node:http,
 * with and without a response contract and with the decorators' instanceToPlain registered.
 */

const cycle = () => {
  const a: Record<string, unknown> = { id: 1 };
  a.self = a;
  return a;
};
class Cyclic {
  id = 1;
  self: Cyclic = this;
}
const throwingGetter = () => ({
  get boom(): never {
    throw new Error("getter");
  },
});
const throwingToJson = () => ({
  toJSON: () => {
    throw new Error("toJSON");
  },
});
const big = () => Array.from({ length: (10 * 1024 * 1024) / 2 }, () => 0); // "0," × 5 Mi ≈ 10 MB of JSON

const tree = alt(
  route("GET /cycle", cycle),
  route("GET /cyclic-class", () => new Cyclic()),
  route("GET /getter", throwingGetter),
  route("GET /tojson", throwingToJson),
  route("GET /async-cycle", async () => cycle()),
  route("GET /big", big),
  route("GET /ok", () => ({ ok: true })),
  route(
    "GET /contract-cycle",
    // typed as the contract's value, so the type check lets the run-time check meet the cycle
    described(cycle as () => { id: number }, {
      contract: "check",
      responses: { 200: { schema: z.object({ id: z.number() }) } },
    }),
  ),
  route(
    "GET /contract-getter",
    described(throwingGetter, { contract: "strip", responses: { 200: { schema: z.object({}) } } }),
  ),
);

const failing = [
  "/cycle",
  "/cyclic-class",
  "/getter",
  "/tojson",
  "/async-cycle",
  "/contract-cycle",
  "/contract-getter",
];

describe("through inject", () => {
  const errors: unknown[] = [];
  const options: PipelineOptions = { onError: (e) => void errors.push(e) };

  test.each(failing)("%s is a 500 told to onError; the next request is answered", async (url) => {
    errors.length = 0;
    const res = await inject(tree, { url }, options);
    expect(res.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect((await inject(tree, { url: "/ok" }, options)).status).toBe(200);
  });

  test("a 10 MB array is sent", async () => {
    const res = await inject(tree, { url: "/big" }, options);
    expect(res.status).toBe(200);
    expect(res.bytes.length).toBeGreaterThan(10 * 1024 * 1024 - 10);
  });
});

describe("through node:http", () => {
  let server: TestServer;
  const errors: unknown[] = [];
  beforeAll(async () => {
    server = await startServer(toApplication(tree, { onError: (e) => void errors.push(e) }));
  });
  afterAll(() => server.close());

  test("each hostile reply is a 500, the server goes on, the big one is sent whole", async () => {
    for (const url of failing) {
      const res = await fetch(server.url + url);
      expect([url, res.status]).toEqual([url, 500]);
      await res.arrayBuffer();
      expect((await fetch(`${server.url}/ok`)).status).toBe(200);
    }
    expect(errors).toHaveLength(failing.length);
    const res = await fetch(`${server.url}/big`);
    expect(res.status).toBe(200);
    expect((await res.json()) as unknown[]).toHaveLength((10 * 1024 * 1024) / 2);
  });
});
