import { compileErrors, validate } from "@readme/openapi-parser";
import fc from "fast-check";
import {
  alt,
  Bool,
  Day,
  described,
  Double,
  guard,
  Int,
  Int64,
  Integer,
  match,
  method,
  openapi,
  type OpenApiDocument,
  type OpenApiObject,
  type PathParser,
  pathVar,
  route,
  type RouteNode,
  Text,
  UUID,
  Word,
} from "../src";
import { createApp as createFunctionalApp } from "../samples/functional/app";
import { createApp as createControllersApp } from "../samples/controllers/app";
import { randomTrees } from "./helpers/random-routes";

const info = { title: "Users", version: "1.0.0" };
const ok = () => "ok";

/** Validates with a real OpenAPI validator; fails the test with its messages. */
async function expectValid(document: OpenApiDocument): Promise<void> {
  // the validator dereferences in place: give it a copy
  const result = await validate(structuredClone(document) as never);
  if (!result.valid) throw new Error(compileErrors(result));
  expect(result.specification).toBe("OpenAPI");
}

function operation(document: OpenApiDocument, path: string, field: string): OpenApiObject {
  return document.paths[path]![field] as OpenApiObject;
}

describe("openapi: the README's sample apps", () => {
  test("controllers: paths as templates, newtype schemas from class-validator, operationId and tags", async () => {
    const document = openapi(createControllersApp(), { info, servers: [{ url: "http://127.0.0.1:3000" }] });
    await expectValid(document);
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: "http://127.0.0.1:3000" }]);
    expect(Object.keys(document.paths)).toEqual([
      "/health",
      "/api/users",
      "/api/users/me",
      "/api/users/{id}",
      "/api/reports/{on}",
      "/static",
    ]);
    const byId = operation(document, "/api/users/{id}", "get");
    expect(byId).toMatchObject({
      operationId: "UsersController.byId",
      tags: ["Users"],
      parameters: [
        {
          name: "id",
          in: "path",
          required: true,
          schema: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
        },
      ],
    });
    // the route by name has the same path shape: listed under the first, with a note
    const [byName] = byId["x-switchyard-fall-through"] as OpenApiObject[];
    expect(byName).toMatchObject({
      operationId: "UsersController.byName",
      "x-switchyard-path": "/api/users/{name}",
      parameters: [
        {
          name: "id",
          "x-switchyard-label": "name",
          schema: { type: "string", minLength: 3, maxLength: 20, pattern: "^[a-z][a-z0-9_]*$" },
        },
      ],
    });
    expect(byName!["x-switchyard-note"]).toMatch(/earlier route has this path and method/);
    expect(operation(document, "/api/users/{id}", "delete")).toMatchObject({ operationId: "UsersController.remove" });
    expect(operation(document, "/api/reports/{on}", "get")).toMatchObject({
      parameters: [{ schema: { type: "string", format: "date" } }],
    });
    expect(operation(document, "/static", "get")["x-switchyard-rest"]).toMatch(/further path segments/);
  });

  test("controllers: @Query and @Header parameters and the @Body request body are in the document", async () => {
    const document = openapi(createControllersApp(), { info });
    await expectValid(document);
    expect(operation(document, "/api/users", "get")["parameters"]).toEqual([
      {
        name: "limit",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      },
      { name: "prefix", in: "query", required: false, schema: { type: "string" } },
    ]);
    expect(operation(document, "/api/users/me", "get")["parameters"]).toEqual([
      {
        name: "x-user-id",
        in: "header",
        required: true,
        schema: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      },
    ]);
    expect(operation(document, "/api/users", "post")["requestBody"]).toEqual({
      required: true,
      content: { "application/json": { schema: { type: "object", "x-switchyard-type": "CreateUser" } } },
    });
  });

  test("functional: the same inputs, declared with described(), give the same parameters", async () => {
    const list = described(() => [], {
      name: "list",
      inputs: [
        { in: "query", name: "tag", parser: Text, required: true, array: true },
        { in: "body", type: "Filter" },
      ],
    });
    const document = openapi(route("POST /things", list), { info });
    await expectValid(document);
    expect(operation(document, "/things", "post")).toMatchObject({
      parameters: [{ name: "tag", in: "query", required: true, schema: { type: "array", items: { type: "string" } } }],
      requestBody: { content: { "application/json": { schema: { type: "object", "x-switchyard-type": "Filter" } } } },
    });
  });

  test("functional: anonymous handlers get route ids, guards are listed", async () => {
    const document = openapi(createFunctionalApp(), { info });
    await expectValid(document);
    expect(operation(document, "/health", "get").operationId).toBe("route1");
    expect(operation(document, "/api/users/{id}", "delete")["x-switchyard-guards"]).toEqual(["guard"]);
    expect(operation(document, "/api/users/{id}", "get")).toMatchObject({
      parameters: [{ schema: { type: "integer" } }],
    });
  });
});

describe("openapi: schemas and what OpenAPI cannot state", () => {
  test("each built-in parser's schema", async () => {
    const parsers: [PathParser<unknown>, object][] = [
      [Int, { type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER }],
      [Word, { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER }],
      [Int64, { type: "integer", format: "int64" }],
      [Integer, { type: "integer" }],
      [Double, { type: "number" }],
      [Bool, { type: "boolean" }],
      [UUID, { type: "string", format: "uuid" }],
      [Day, { type: "string", format: "date" }],
      [Text, { type: "string" }],
    ];
    const tree = alt(...parsers.map(([p]) => method("GET", pathVar(`v${p.name}`, p, ok))));
    const document = openapi(tree, { info });
    await expectValid(document);
    const get = operation(document, "/{vInt}", "get");
    const all = [get, ...(get["x-switchyard-fall-through"] as OpenApiObject[])];
    expect(all.map((o) => (o["parameters"] as OpenApiObject[])[0]!["schema"])).toEqual(
      parsers.map(([, schema]) => schema),
    );
    // a parser with no schema is a string
    const Slug: PathParser<string> = { name: "Slug", parseUrlPiece: (p) => p, toUrlPiece: String };
    expect(operation(openapi(pathVar("s", Slug, ok), { info }), "/{s}", "x-switchyard-other-methods")).toMatchObject({
      "*": { parameters: [{ schema: { type: "string" }, "x-switchyard-type": "Slug" }] },
    });
  });

  test("any method, a method OpenAPI has no field for, a literal with braces: listed with notes, still valid", async () => {
    const tree = alt(route("/any", ok), route("PURGE /cache", ok), route("GET /{weird}", ok), route("/any", ok));
    const document = openapi(tree, { info });
    await expectValid(document);
    const others = document.paths["/any"]!["x-switchyard-other-methods"] as OpenApiObject;
    expect((others["*"] as OpenApiObject)["x-switchyard-note"]).toMatch(/any method/);
    expect((others["*"] as OpenApiObject)["x-switchyard-fall-through"]).toHaveLength(1);
    expect(
      ((document.paths["/cache"]!["x-switchyard-other-methods"] as OpenApiObject)["PURGE"] as OpenApiObject)[
        "x-switchyard-note"
      ],
    ).toMatch(/PURGE/);
    expect(Object.keys(document.paths)).toContain("/%7Bweird%7D");
  });

  test("guards, prefixes with variables, duplicate handler names get unique operationIds", async () => {
    function show() {
      return "x";
    }
    const tree = match(
      "/org/org:Text",
      alt(
        guard(() => true, route("GET /a", show)),
        route("GET /b", show),
        match("GET /files", ok),
      ),
    );
    const document = openapi(tree, { info });
    await expectValid(document);
    expect(operation(document, "/org/{org}/a", "get").operationId).toBe("show");
    expect(operation(document, "/org/{org}/b", "get").operationId).toBe("show_2");
    expect(operation(document, "/org/{org}/files", "get")).toMatchObject({
      parameters: [{ name: "org" }],
      "x-switchyard-rest": expect.any(String),
    });
  });

  test("a tree with no route still gives a valid document", async () => {
    await expectValid(openapi(alt(), { info }));
    await expectValid(openapi(method("GET", method("POST", route("/", ok))), { info }));
  });

  test("options need info.title and info.version", () => {
    expect(() => openapi(route("/", ok), {} as never)).toThrow(/info needs a title and a version/);
  });
});

describe("openapi: every random tree gives a valid document", () => {
  test("validated by @readme/openapi-parser", async () => {
    await fc.assert(
      fc.asyncProperty(randomTrees, async ({ tree }: { tree: RouteNode }) => {
        await expectValid(openapi(tree, { info }));
      }),
      { numRuns: 40, seed: 9 },
    );
  });
});
