import "reflect-metadata";
import { compileErrors, validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import fc from "fast-check";
import {
  alt,
  Bool,
  body,
  Day,
  described,
  Double,
  guard,
  Int,
  Int64,
  Integer,
  inject,
  match,
  method,
  openapi,
  type OpenApiDocument,
  type OpenApiObject,
  type PathParser,
  pathVar,
  route,
  routeMismatch,
  type RouteNode,
  Text,
  UUID,
  Word,
} from "../src";
import { z } from "zod";
import { Cookie, controllers, Header, Match, Query, Route } from "../decorators";
import { createApp as createFunctionalApp } from "../samples/functional/app";
import { createApp as createControllersApp } from "../samples/controllers/app";
import { randomTrees } from "./helpers/random-routes";
import { CONTROLLERS_SAMPLE_OPERATIONS } from "./shared/sample-operations";

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
  const found = document.paths[path]?.[field] as OpenApiObject | undefined;
  if (found === undefined) throw new Error(`no operation ${field} ${path}`);
  return found;
}

/** Every operation of a document, with its path and method (operations under `x-` keys too). */
function operations(document: OpenApiDocument): { path: string; method: string; operation: OpenApiObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      method.startsWith("x-") ? [] : [{ path, method, operation: op as OpenApiObject }],
    ),
  );
}

/** Every operationId, also those of routes listed under `x-switchyard-fall-through`. */
function operationIds(document: OpenApiDocument): string[] {
  return operations(document).flatMap(({ operation: op }) => [
    String(op.operationId),
    ...((op["x-switchyard-fall-through"] as OpenApiObject[] | undefined) ?? []).map((o) => String(o.operationId)),
  ]);
}

describe("openapi: the samples", () => {
  test("controllers: every route is an operation with real schemas, operationIds from Class.method", async () => {
    const document = openapi(createControllersApp(), { info, servers: [{ url: "http://127.0.0.1:3000" }] });
    await expectValid(document);
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers).toEqual([{ url: "http://127.0.0.1:3000" }]);
    expect(operations(document).map(({ method, path }) => `${method.toUpperCase()} ${path}`)).toEqual(
      CONTROLLERS_SAMPLE_OPERATIONS,
    );
    expect(operationIds(document)).toEqual([
      "HealthController.health",
      "UsersController.list",
      "UsersController.create",
      "UsersController.me",
      "UsersController.byId",
      "UsersController.byName",
      "UsersController.remove",
      "ReportsController.on",
      "UploadsController.upload",
      "EventsController.countdown",
      "getStatic",
    ]);
    // every operation but the functional /static one declares a success reply with a body schema or none
    for (const { operation: op, path } of operations(document)) {
      if (path === "/static") continue;
      const success = Object.keys(op.responses as OpenApiObject).filter((s) => /^2\d\d$/.test(s));
      expect({ path, success: success.length }).toEqual({ path, success: 1 });
    }
    // the upload: its @File and @FormField are a multipart/form-data body
    expect(operation(document, "/api/avatars", "post").requestBody).toEqual({
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            properties: {
              avatar: { type: "string", contentMediaType: "application/octet-stream" },
              caption: { type: "string" },
            },
            required: ["avatar"],
          },
        },
      },
    });
    expect(operation(document, "/api/users/{id}", "get").responses).toMatchObject({
      200: { content: { "application/json": { schema: { $ref: "#/components/schemas/User" } } } },
    });
    expect(document.components!.schemas).toMatchObject({
      User: {
        type: "object",
        properties: {
          id: { type: "integer", minimum: 1 },
          name: { type: "string", minLength: 3, maxLength: 20, pattern: "^[a-z][a-z0-9_]*$" },
        },
        required: ["id", "name"],
      },
    });
  });

  test("controllers: the @Body DTO's class-validator rules are its schema, a $ref component; @Query and @Header are parameters", async () => {
    const document = openapi(createControllersApp(), { info });
    await expectValid(document);
    expect(operation(document, "/api/users", "post").requestBody).toEqual({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/CreateUser" } } },
    });
    expect((document.components!.schemas as OpenApiObject).CreateUser).toEqual({
      type: "object",
      properties: { name: { type: "string", minLength: 3, maxLength: 20, pattern: "^[a-z][a-z0-9_]*$" } },
      required: ["name"],
      // the route has forbidNonWhitelisted: another property is a 400
      additionalProperties: false,
    });
    expect(operation(document, "/api/users", "get").parameters).toEqual([
      {
        name: "limit",
        in: "query",
        required: false,
        schema: { type: "integer", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      },
      { name: "prefix", in: "query", required: false, schema: { type: "string" } },
      // a repeated key read as an array: none is [], so the route never refuses it missing
      { name: "name", in: "query", required: false, schema: { type: "array", items: { type: "string" } } },
    ]);
    expect(operation(document, "/api/users/me", "get").parameters).toEqual([
      {
        name: "x-user-id",
        in: "header",
        required: true,
        schema: { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
      },
    ]);
  });

  test("controllers: the fall-through route by name is part of the visible operation, listed in order", async () => {
    const document = openapi(createControllersApp(), { info });
    const byId = operation(document, "/api/users/{id}", "get");
    expect(byId.operationId).toBe("UsersController.byId");
    expect(byId.summary).toBe("A user by id; else A user by name");
    expect(byId.description).toMatch(/tried in this order/);
    expect(byId.description).toMatch(/1\. `GET \/api\/users\/\{id:UserId\}` \(`UsersController\.byId`\)/);
    expect(byId.description).toMatch(/2\. `GET \/api\/users\/\{name:Username\}` \(`UsersController\.byName`\)/);
    // the path parameter is either route's type
    expect(byId.parameters).toEqual([
      expect.objectContaining({
        name: "id",
        in: "path",
        required: true,
        schema: {
          anyOf: [
            { type: "integer", minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
            { type: "string", minLength: 3, maxLength: 20, pattern: "^[a-z][a-z0-9_]*$" },
          ],
        },
      }),
    ]);
    // the replies of both: the user, and byName's own 404 joined with the router's empty one
    expect(Object.keys(byId.responses as OpenApiObject)).toEqual(["200", "404"]);
    expect((byId.responses as Record<string, OpenApiObject>)["404"]!.description).toMatch(
      /^no user has that name; or no route answered, with an empty body/,
    );
    // each route's own operation is kept as an extra
    const [byName] = byId["x-switchyard-fall-through"] as OpenApiObject[];
    expect(byName).toMatchObject({
      operationId: "UsersController.byName",
      "x-switchyard-path": "/api/users/{name}",
      parameters: [{ name: "id", "x-switchyard-label": "name", schema: { type: "string", minLength: 3 } }],
    });
    expect(byName!["x-switchyard-note"]).toMatch(/earlier route has this path and method/);
  });

  test("controllers: guards, Day parameters, a functional rest route", async () => {
    const document = openapi(createControllersApp(), { info });
    expect(operation(document, "/api/users/{id}", "delete")).toMatchObject({
      operationId: "UsersController.remove",
      "x-switchyard-guards": ["ApiKeyGuard.canActivate"],
      responses: { 204: { description: "removed" }, 404: { $ref: "#/components/responses/NotFound" } },
    });
    expect(operation(document, "/api/reports/{on}", "get")).toMatchObject({
      parameters: [{ schema: { type: "string", format: "date" } }],
    });
    expect(operation(document, "/static", "get")["x-switchyard-rest"]).toMatch(/further path segments/);
  });

  test("functional: named handlers are operationIds, zod schemas are bodies and replies, named ones components", async () => {
    const document = openapi(createFunctionalApp(), { info });
    await expectValid(document);
    expect(operationIds(document)).toEqual([
      "health",
      "listUsers",
      "createUser",
      "userById",
      "userByName",
      "removeUser",
      "usersOn",
      "getStatic",
    ]);
    expect(operationIds(document).some((id) => /^route\d+$/.test(id))).toBe(false);
    expect(operation(document, "/api/users", "post").requestBody).toEqual({
      required: true,
      content: { "application/json": { schema: { $ref: "#/components/schemas/CreateUser" } } },
    });
    expect(document.components!.schemas).toMatchObject({
      CreateUser: { type: "object", properties: { name: { type: "string", minLength: 1 } }, required: ["name"] },
      User: { type: "object", required: ["id", "name"] },
    });
    expect(operation(document, "/api/users", "get").responses).toMatchObject({
      200: {
        content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/User" } } } },
      },
    });
    expect(operation(document, "/api/users/{id}", "delete")).toMatchObject({
      "x-switchyard-guards": ["guard"],
      responses: { 204: {}, 404: { $ref: "#/components/responses/NotFound" } },
    });
    expect(operation(document, "/api/users/{id}", "get").parameters).toMatchObject([
      { schema: { anyOf: [{ type: "integer" }, { type: "string" }] } },
    ]);
  });
});

describe("openapi: parameters are required exactly when the route refuses them missing", () => {
  @Match("/r")
  class Reads {
    @Route("GET /")
    read(
      @Query("page", Int) _page: number,
      @Query("size", Int, { optional: true }) _size: number | undefined,
      @Query("tag") _tags: string[],
      @Query("id", Int, { array: true }) _ids: number[],
      @Header("x-key") _key: string,
      @Header("x-trace", Text, { optional: true }) _trace: string | undefined,
      @Cookie("session") _session: string,
      @Cookie("theme", Text, { optional: true }) _theme: string | undefined,
    ) {
      return "ok";
    }
  }
  const tree = controllers([Reads]);

  test("the document says required: true for a value the route refuses missing, false otherwise", async () => {
    const document = openapi(tree, { info });
    await expectValid(document);
    const parameters = operation(document, "/r", "get").parameters as OpenApiObject[];
    expect(parameters.map((p) => [p.in, p.name, p.required])).toEqual([
      ["query", "page", true],
      ["query", "size", false],
      ["query", "tag", false],
      ["query", "id", false],
      ["header", "x-key", true],
      ["header", "x-trace", false],
      ["cookie", "session", true],
      ["cookie", "theme", false],
    ]);
    expect(parameters.find((p) => p.name === "id")!.schema).toEqual({
      type: "array",
      items: { type: "integer", minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
    });
  });

  test("the route agrees: each value the document calls required is a 400 when left out, the others are not", async () => {
    const document = openapi(tree, { info });
    const parameters = operation(document, "/r", "get").parameters as OpenApiObject[];
    const full = {
      url: "/r?page=1&size=2&tag=a&id=3",
      headers: { "x-key": "k", "x-trace": "t", cookie: "session=s; theme=t" },
    };
    expect((await inject(tree, full)).status).toBe(200);
    for (const p of parameters) {
      const request = structuredClone(full);
      if (p.in === "query")
        request.url = `/r?${new URLSearchParams([...new URLSearchParams(full.url.slice(3))].filter(([k]) => k !== p.name))}`;
      if (p.in === "header") delete (request.headers as Record<string, string>)[String(p.name)];
      if (p.in === "cookie")
        request.headers.cookie = full.headers.cookie
          .split("; ")
          .filter((c) => !c.startsWith(`${String(p.name)}=`))
          .join("; ");
      const { status } = await inject(tree, request);
      expect({ parameter: p.name, status }).toEqual({ parameter: p.name, status: p.required === true ? 400 : 200 });
    }
  });
});

describe("openapi: operationIds", () => {
  test("unique, from handler names, Class.method, or the method and path of a nameless handler", async () => {
    function show() {
      return "x";
    }
    const tree = match(
      "/org/org:Text",
      alt(
        guard(() => true, route("GET /a", show)),
        route("GET /b", show),
        match("GET /files", ok),
        route("POST /things/id:Int/open-now", () => "x"),
        route("GET /", () => "x"),
        route("GET /b/c", () => "x"),
        route("DELETE /b/c", () => "x"),
        route("/any", () => "x"),
      ),
    );
    const document = openapi(tree, { info });
    await expectValid(document);
    expect(operation(document, "/org/{org}/a", "get").operationId).toBe("show");
    expect(operation(document, "/org/{org}/b", "get").operationId).toBe("show_2");
    expect(operation(document, "/org/{org}/files", "get").operationId).toBe("ok");
    expect(operation(document, "/org/{org}/things/{id}/open-now", "post").operationId).toBe(
      "postOrgByOrgThingsByIdOpenNow",
    );
    expect(operation(document, "/org/{org}", "get").operationId).toBe("getOrgByOrg");
    expect(operation(document, "/org/{org}/b/c", "get").operationId).toBe("getOrgByOrgBC");
    expect(operation(document, "/org/{org}/b/c", "delete").operationId).toBe("deleteOrgByOrgBC");
    expect(
      ((document.paths["/org/{org}/any"]!["x-switchyard-other-methods"] as OpenApiObject)["*"] as OpenApiObject)
        .operationId,
    ).toBe("anyOrgByOrgAny");
    const ids = operationIds(document);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      operationIds(
        openapi(
          route("GET /", () => "x"),
          { info },
        ),
      ),
    ).toEqual(["getRoot"]);
  });

  test("every random tree: operationIds unique, none of the old route<N> form", async () => {
    fc.assert(
      fc.property(randomTrees, ({ tree }: { tree: RouteNode }) => {
        const ids = operationIds(openapi(tree, { info }));
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.filter((id) => /^route\d+$/.test(id))).toEqual([]);
      }),
      { numRuns: 60, seed: 11 },
    );
  });
});

describe("openapi: the router's errors are shared components", () => {
  const Id: PathParser<number> = Int;
  const tree = alt(
    route("GET /plain", described(ok, { name: "plain" })),
    route("GET /items/id:Int", described(ok, { name: "item" })),
    route(
      "GET /search",
      described(ok, { name: "search", inputs: [{ in: "query", name: "q", parser: Text, required: true }] }),
    ),
    route("POST /items", described(ok, { name: "add", inputs: [{ in: "body", type: "Item" }] })),
    guard(() => true, route("GET /admin", described(ok, { name: "admin" }))),
    pathVar("n", Id, described(ok, { name: "any" })),
  );

  test("400 where values or a body are read, 404 where a path type or guard may pass, 413 and 415 for a body", async () => {
    const document = openapi(tree, { info });
    await expectValid(document);
    const statuses = (path: string, field: string) => Object.keys(operation(document, path, field).responses as object);
    expect(statuses("/plain", "get")).toEqual(["default"]);
    expect(statuses("/items/{id}", "get")).toEqual(["404", "default"]);
    expect(statuses("/search", "get")).toEqual(["400", "default"]);
    expect(statuses("/items", "post")).toEqual(["400", "413", "415", "default"]);
    expect(statuses("/admin", "get")).toEqual(["404", "default"]);
    expect(operation(document, "/items", "post").responses).toMatchObject({
      400: { $ref: "#/components/responses/BadRequest" },
      413: { $ref: "#/components/responses/ContentTooLarge" },
      415: { $ref: "#/components/responses/UnsupportedMediaType" },
    });
  });

  test("the components: the 400's errors list, the empty 404, the 413 and 415 error body", () => {
    const document = openapi(tree, { info });
    const components = document.components as { responses: Record<string, OpenApiObject>; schemas: OpenApiObject };
    expect(Object.keys(components.responses)).toEqual([
      "BadRequest",
      "NotFound",
      "ContentTooLarge",
      "UnsupportedMediaType",
    ]);
    expect(components.responses.BadRequest).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/ValidationError" } } },
    });
    expect(components.responses.NotFound!.content).toBeUndefined();
    expect(components.responses.ContentTooLarge).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    });
    expect(components.schemas.ValidationError).toMatchObject({
      properties: {
        error: { type: "string" },
        errors: { type: "array", items: { $ref: "#/components/schemas/FieldError" } },
      },
      required: ["error", "errors"],
    });
    expect(components.schemas.FieldError).toMatchObject({
      properties: { in: { enum: ["query", "header", "cookie", "body"] } },
      required: ["in", "field", "constraint", "message"],
    });
  });

  test("the error bodies are what the router answers", async () => {
    const app = route("POST /items", async (req) => body(req, z.object({ name: z.string() })));
    const document = openapi(
      alt(
        route("POST /items", described(ok, { name: "add", inputs: [{ in: "body", schema: z.object({}) }] })),
        route("GET /x/n:Int", ok),
      ),
      { info },
    );
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document as object, "doc");
    const schemaOf = (name: string) =>
      ajv.compile({ $ref: `doc#/components/responses/${name}/content/application~1json/schema` });
    const bad = await inject(app, { method: "POST", url: "/items", body: '{"name":1}' });
    expect(bad.status).toBe(400);
    expect(schemaOf("BadRequest")(JSON.parse(bad.body))).toBe(true);
    const type = await inject(app, {
      method: "POST",
      url: "/items",
      headers: { "content-type": "application/xml" },
      body: "<a/>",
    });
    expect(type.status).toBe(415);
    expect(schemaOf("UnsupportedMediaType")(JSON.parse(type.body))).toBe(true);
    const large = await inject(app, { method: "POST", url: "/items", body: `{"name":"${"x".repeat(2_000_000)}"}` });
    expect(large.status).toBe(413);
    expect(schemaOf("ContentTooLarge")(JSON.parse(large.body))).toBe(true);
    const none = await inject(app, { url: "/x/notanint" });
    expect(none).toMatchObject({ status: 404, body: "" });
  });
});

describe("openapi: routes that share a path and method are one operation", () => {
  test("parameters: either type; a value only some routes read is optional; replies of one status joined", async () => {
    const byId = described((req: { vars: { id: number } }) => (req.vars.id > 0 ? "x" : routeMismatch()), {
      name: "byId",
      summary: "by id",
      inputs: [
        { in: "query", name: "expand", parser: Bool, required: true },
        { in: "header", name: "x-both", parser: Text, required: true },
      ],
      responses: { 200: { description: "a thing", schema: { type: "string" } } },
    });
    const bySlug = described(ok, {
      name: "bySlug",
      inputs: [{ in: "header", name: "X-Both", parser: Text, required: false }],
      responses: { 200: { description: "another thing", schema: { type: "integer" } } },
    });
    const tree = alt(route("GET /t/id:Int", byId), route("GET /t/slug:Text", bySlug));
    const document = openapi(tree, { info });
    await expectValid(document);
    const op = operation(document, "/t/{id}", "get");
    expect(op.parameters).toEqual([
      expect.objectContaining({
        name: "id",
        in: "path",
        required: true,
        schema: { anyOf: [expect.any(Object), { type: "string" }] },
      }),
      expect.objectContaining({ name: "expand", in: "query", required: false, schema: {} }),
      expect.objectContaining({ name: "x-both", in: "header", required: false, schema: { type: "string" } }),
    ]);
    expect((op.responses as Record<string, OpenApiObject>)["200"]).toEqual({
      description: "a thing; else another thing",
      content: { "application/json": { schema: { anyOf: [{ type: "string" }, { type: "integer" }] } } },
    });
    expect((op.responses as Record<string, OpenApiObject>)["404"]).toEqual({ $ref: "#/components/responses/NotFound" });
  });

  test("four routes; each route's own operation stays under x-switchyard-fall-through", async () => {
    const tree = alt(
      route("GET /v/a:Int", () => "a"),
      route("GET /v/b:UUID", () => "b"),
      route("GET /v/c:Text", () => "c"),
      route("GET /v/c:Text", () => "c"),
    );
    const document = openapi(tree, { info });
    await expectValid(document);
    const op = operation(document, "/v/{a}", "get");
    expect(op.operationId).toBe("getVByA");
    expect(op.description).toMatch(/^4 routes share this path and method/);
    expect((op["x-switchyard-fall-through"] as OpenApiObject[]).map((o) => o.operationId)).toEqual([
      "getVByB",
      "getVByC",
      "getVByC_2",
    ]);
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
    for (const [parser, schema] of parsers) {
      const document = openapi(method("GET", pathVar("v", parser, ok)), { info });
      expect((operation(document, "/{v}", "get").parameters as OpenApiObject[])[0]!.schema).toEqual(schema);
    }
    const all = openapi(alt(...parsers.map(([p]) => method("GET", pathVar(`v${p.name}`, p, ok)))), { info });
    await expectValid(all);
    expect((operation(all, "/{vInt}", "get").parameters as OpenApiObject[])[0]!.schema).toEqual({
      anyOf: parsers.map(([, schema]) => schema),
    });
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

  test("hidden routes are left out", () => {
    const document = openapi(alt(route("GET /a", ok), route("GET /b", described(ok, { hidden: true }))), { info });
    expect(Object.keys(document.paths)).toEqual(["/a"]);
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
