import { z } from "zod";

/*
 * The validating readers of the main entry need neither the decorators nor class-validator: loading
 * switchyard-router loads none of class-validator, class-transformer, reflect-metadata or the decorators
 * entry, and a schema body is read without them. A DTO class, which only the decorators entry can
 * read, is refused with what to import.
 */

const mockLoaded: string[] = [];
jest.mock("class-validator", () => {
  mockLoaded.push("class-validator");
  return jest.requireActual("class-validator");
});
jest.mock("class-transformer", () => {
  mockLoaded.push("class-transformer");
  return jest.requireActual("class-transformer");
});
jest.mock("reflect-metadata", () => {
  mockLoaded.push("reflect-metadata");
  return jest.requireActual("reflect-metadata");
});
jest.mock("../decorators/index", () => {
  mockLoaded.push("decorators");
  return jest.requireActual("../decorators/index");
});
jest.mock("../decorators/body", () => {
  mockLoaded.push("decorators/body");
  return jest.requireActual("../decorators/body");
});

// loaded after the mocks are in place (imports are hoisted above them)
const lib = require("../src") as typeof import("../src");

test("loading the main entry loads no validation library and no decorator module", () => {
  expect(mockLoaded).toEqual([]);
});

test("body() and queryObject() read with a schema, no library loaded", async () => {
  const { body, inject, queryObject, route, alt, json } = lib;
  const tree = alt(
    route("POST /items", async (req) => json(await body(req, z.object({ name: z.string().min(3) })), { status: 201 })),
    route("GET /items", async (req) => queryObject(req, z.object({ page: z.coerce.number() }))),
  );
  const created = await inject(tree, {
    method: "POST",
    url: "/items",
    headers: { "content-type": "application/json" },
    body: '{"name":"desk"}',
  });
  expect([created.status, JSON.parse(created.body)]).toEqual([201, { name: "desk" }]);
  const listed = await inject(tree, { url: "/items?page=2" });
  expect([listed.status, JSON.parse(listed.body)]).toEqual([200, { page: 2 }]);
  expect(mockLoaded).toEqual([]);
});

test("a DTO class without the decorators entry loaded: a TypeError saying what to import", async () => {
  const { body, inject, route } = lib;
  class CreateItem {
    name!: string;
  }
  const errors: unknown[] = [];
  const tree = route("POST /items", async (req) => body(req, CreateItem));
  const response = await inject(
    tree,
    { method: "POST", url: "/items", body: "{}" },
    { onError: (error) => void errors.push(error) },
  );
  expect(response.status).toBe(500);
  expect(String(errors[0])).toBe(
    "TypeError: body(): CreateItem is a class, read as a class-validator DTO by switchyard-router/decorators, which is not loaded: " +
      'import { body } from "switchyard-router/decorators" (or import "switchyard-router/decorators" once), or give a Standard Schema (zod, valibot, arktype)',
  );
});

test("the probe can fail: loading the decorators entry is seen (last: it registers the DTO reader)", () => {
  jest.isolateModules(() => require("../decorators"));
  expect(mockLoaded).toEqual(expect.arrayContaining(["reflect-metadata", "decorators", "decorators/body"]));
  mockLoaded.length = 0;
});
