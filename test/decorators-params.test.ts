import { Type } from "class-transformer";
import { ArrayMinSize, IsEmail, IsInt, IsOptional, IsString, Length, Min, ValidateNested } from "class-validator";
import fc from "fast-check";
import { execFileSync } from "node:child_process";
import path from "node:path";
import {
  Bool,
  headerParam,
  inject,
  Int,
  queryParam,
  queryParams,
  readParams,
  readParamsAsync,
  route,
  Text,
  UUID,
  type InjectRequest,
  type Route as Tree,
  type RoutedRequest,
} from "../src";
import { Body, body, controllers, Header, Newtype, PathType, PathVar, Query, Req, Route } from "../decorators";
import { expectControllerError, shape } from "./helpers/decorators";

/*
 * @Query, @Header and @Body, each against its functional counterpart (queryParam, queryParams,
 * headerParam, body): the same tree, the same answers. A missing, unparsable or invalid value is a 400
 * whose JSON body names each failing field and constraint.
 */

async function call(app: Tree, request: InjectRequest): Promise<{ status: number; body: unknown }> {
  const response = await inject(app, request);
  return { status: response.status, body: response.body === "" ? "" : JSON.parse(response.body) };
}

const post = (url: string, json: unknown, raw?: string): InjectRequest => ({
  method: "POST",
  url,
  headers: { "content-type": "application/json" },
  body: raw ?? JSON.stringify(json),
});

@PathType()
class Page extends Newtype(Int) {
  @Min(1) declare readonly value: number;
}

describe("@Query", () => {
  class Search {
    @Route("GET /search")
    search(
      @Query("q") q: string,
      @Query("page", Int, { optional: true }) page: number | undefined,
      @Query("exact") exact: boolean,
      @Query("tag") tags: string[],
      @Query("id", UUID, { array: true }) ids: string[],
    ) {
      return { q, page: page ?? null, exact, tags, ids };
    }
  }
  const app = controllers([Search]);

  test("types from the decorator or the declared type; optional; repeated keys as arrays", async () => {
    const id = "0b7e4e4e-2b6c-4a59-9f35-5c41a5a1a4c2";
    expect(await call(app, { url: `/search?q=lamp&page=2&exact=TRUE&tag=a&tag=b&id=${id.toUpperCase()}` })).toEqual({
      status: 200,
      body: { q: "lamp", page: 2, exact: true, tags: ["a", "b"], ids: [id] },
    });
    expect(await call(app, { url: "/search?q=&exact=false" })).toEqual({
      status: 200,
      body: { q: "", page: null, exact: false, tags: [], ids: [] },
    });
  });

  test("a missing required parameter is a 400 naming it", async () => {
    expect(await call(app, { url: "/search?exact=true" })).toEqual({
      status: 400,
      body: {
        error: 'the query parameter "q" is required',
        errors: [
          { in: "query", field: "q", constraint: "required", message: 'the query parameter "q" is required (Text)' },
        ],
      },
    });
  });

  test("an unparsable value is a 400 naming the parameter and the type", async () => {
    expect(await call(app, { url: "/search?q=x&exact=true&page=two" })).toEqual({
      status: 400,
      body: {
        error: 'the query parameter "page" is not a valid Int',
        errors: [{ in: "query", field: "page", constraint: "Int", message: '"two" is not a valid Int' }],
      },
    });
    expect((await call(app, { url: "/search?q=x&exact=true&id=nope" })).body).toMatchObject({
      errors: [{ field: "id", constraint: "UUID" }],
    });
    expect((await call(app, { url: "/search?q=x&exact=yes" })).body).toMatchObject({
      errors: [{ field: "exact", constraint: "Bool" }],
    });
  });

  test("a validated newtype as the declared type: a value failing its constraint is a 400", async () => {
    class Paged {
      @Route("GET /list")
      list(@Query("page") page: Page) {
        return { page: page.value };
      }
    }
    const paged = controllers([Paged]);
    expect(await call(paged, { url: "/list?page=3" })).toEqual({ status: 200, body: { page: 3 } });
    expect((await call(paged, { url: "/list?page=0" })).body).toMatchObject({
      errors: [{ field: "page", constraint: "Page" }],
    });
  });

  test("the same answers as the functional form, for every query value", async () => {
    const functional = route("GET /search", (req) => {
      const [q, page, exact, tags, ids] = readParams(req, [
        (r) => queryParam(r, "q"),
        (r) => queryParam(r, "page", Int, { optional: true }),
        (r) => queryParam(r, "exact", Bool),
        (r) => queryParams(r, "tag"),
        (r) => queryParams(r, "id", UUID),
      ]);
      return { q, page: page ?? null, exact, tags, ids };
    });
    expect(shape(app)).toEqual(shape(functional));
    const value = fc.oneof(
      fc.string(),
      fc.constantFrom("1", "-3", "true", "FALSE", "x", "", "%zz", "9007199254740993"),
    );
    const params = fc.array(fc.tuple(fc.constantFrom("q", "page", "exact", "tag", "id", "other"), value), {
      maxLength: 6,
    });
    await fc.assert(
      fc.asyncProperty(params, async (pairs) => {
        const url = `/search?${new URLSearchParams(pairs).toString()}`;
        expect(await call(app, { url })).toEqual(await call(functional, { url }));
      }),
      { seed: 11, numRuns: 150 },
    );
  });

  test("a number without a parser is a startup error offering Int and Double; so is an unknown declared type", () => {
    class Ambiguous {
      @Route("GET /")
      get(@Query("page") _page: number) {}
    }
    const e = expectControllerError(() => controllers([Ambiguous]), "PARAM_TYPE", "Ambiguous", "get");
    expect(e.message).toBe(
      'Ambiguous.get: @Query("page") on parameter 0 is declared as number, which is ambiguous: write @Query("page", Int) or @Query("page", Double)',
    );
    class Unknown {
      @Route("GET /")
      get(@Query("when") _when: Date) {}
    }
    expect(expectControllerError(() => controllers([Unknown]), "PARAM_TYPE", "Unknown", "get").message).toContain(
      "(it is declared as Date)",
    );
  });

  test("a declared type that contradicts the parser is a startup error, as for @PathVar", () => {
    class Contradicts {
      @Route("GET /")
      get(@Query("q") _q: string, @Query("page", Int) _page: string) {}
    }
    expect(
      expectControllerError(() => controllers([Contradicts]), "PARAM_TYPE_MISMATCH", "Contradicts", "get").message,
    ).toBe('Contradicts.get: parameter 1 (@Query("page")) is declared as string, but Int gives number values');
    class HeaderContradicts {
      @Route("GET /")
      get(@Header("x-when", Bool) _when: number) {}
    }
    expect(
      expectControllerError(() => controllers([HeaderContradicts]), "PARAM_TYPE_MISMATCH", "HeaderContradicts", "get")
        .message,
    ).toBe(
      'HeaderContradicts.get: parameter 0 (@Header("x-when")) is declared as number, but Bool gives boolean values',
    );
  });

  test("bad decorator arguments fail at once", () => {
    expect(() => Query("")).toThrow("@Query: the name must be a non-empty string");
    expect(() => Query("x", {} as never)).toThrow("@Query: the type must be a parser");
  });
});

describe("@Header", () => {
  class Keys {
    @Route("GET /keys")
    keys(@Header("X-Api-Key") key: string, @Header("x-version", Int, { optional: true }) version?: number) {
      return { key, version: version ?? null };
    }
  }
  const app = controllers([Keys]);
  const functional = route("GET /keys", (req) => {
    const [key, version] = readParams(req, [
      (r) => headerParam(r, "x-api-key"),
      (r) => headerParam(r, "x-version", Int, { optional: true }),
    ]);
    return { key, version: version ?? null };
  });

  test("any case; parsed; optional", async () => {
    expect(await call(app, { url: "/keys", headers: { "x-api-key": "k1", "X-Version": "2" } })).toEqual({
      status: 200,
      body: { key: "k1", version: 2 },
    });
    expect(await call(app, { url: "/keys", headers: { "X-API-KEY": "k2" } })).toEqual({
      status: 200,
      body: { key: "k2", version: null },
    });
  });

  test("missing or unparsable: a 400 naming the header", async () => {
    expect(await call(app, { url: "/keys" })).toEqual({
      status: 400,
      body: {
        error: 'the header "x-api-key" is required',
        errors: [
          {
            in: "header",
            field: "x-api-key",
            constraint: "required",
            message: 'the header "x-api-key" is required (Text)',
          },
        ],
      },
    });
    expect(await call(app, { url: "/keys", headers: { "x-api-key": "k", "x-version": "v2" } })).toEqual({
      status: 400,
      body: {
        error: 'the header "x-version" is not a valid Int',
        errors: [{ in: "header", field: "x-version", constraint: "Int", message: '"v2" is not a valid Int' }],
      },
    });
  });

  test("the same tree and answers as headerParam", async () => {
    expect(shape(app)).toEqual(shape(functional));
    for (const headers of [{}, { "x-api-key": "a" }, { "x-api-key": "a", "x-version": "1" }, { "x-version": "z" }]) {
      expect(await call(app, { url: "/keys", headers })).toEqual(await call(functional, { url: "/keys", headers }));
    }
  });
});

describe("@Body", () => {
  class Address {
    @IsString() street!: string;
    @IsString() @Length(2, 2) country!: string;
  }
  class Line {
    @IsString() sku!: string;
    @IsInt() @Min(1) qty!: number;
  }
  class CreateOrder {
    @IsEmail() email!: string;
    @ValidateNested() @Type(() => Address) address!: Address;
    @ValidateNested({ each: true }) @ArrayMinSize(1) @Type(() => Line) lines!: Line[];
    @IsOptional() @IsString() note?: string;
  }

  class Orders {
    @Route("POST /orders")
    create(@Body() order: CreateOrder) {
      return {
        isDto: order instanceof CreateOrder,
        nested: order.address instanceof Address && order.lines.every((l) => l instanceof Line),
        order,
      };
    }

    @Route("POST /strict")
    strict(@Body(CreateOrder, { forbidNonWhitelisted: true }) order: CreateOrder) {
      return order;
    }

    @Route("POST /trimmed")
    trimmed(@Body(CreateOrder, { whitelist: true }) order: CreateOrder) {
      return order;
    }
  }
  const app = controllers([Orders]);
  const valid = {
    email: "ada@example.com",
    address: { street: "1 Loop", country: "GB" },
    lines: [{ sku: "a", qty: 2 }],
  };

  test("a valid body becomes an instance of the DTO, nested classes included", async () => {
    expect(await call(app, post("/orders", valid))).toEqual({
      status: 200,
      body: { isDto: true, nested: true, order: valid },
    });
  });

  test("every failing field and constraint, nested and in arrays, in one 400", async () => {
    const bad = { email: "nope", address: { street: 5, country: "GBR" }, lines: [{ sku: "a", qty: 0 }, { qty: 1.5 }] };
    const answer = await call(app, post("/orders", bad));
    expect(answer.status).toBe(400);
    const { error, errors } = answer.body as {
      error: string;
      errors: { in: string; field: string; constraint: string }[];
    };
    expect(error).toBe("the body is invalid");
    expect(errors.map((e) => `${e.in}:${e.field}:${e.constraint}`).sort()).toEqual([
      "body:address.country:isLength",
      "body:address.street:isString",
      "body:email:isEmail",
      "body:lines.0.qty:min",
      "body:lines.1.qty:isInt",
      "body:lines.1.sku:isString",
    ]);
    expect((await call(app, post("/orders", { ...valid, lines: [] }))).body).toMatchObject({
      errors: [{ field: "lines", constraint: "arrayMinSize" }],
    });
  });

  test("whitelist strips unknown properties; forbidNonWhitelisted answers 400 naming them", async () => {
    const extra = { ...valid, admin: true, address: { ...valid.address, secret: 1 } };
    expect(await call(app, post("/trimmed", extra))).toEqual({ status: 200, body: valid });
    const answer = await call(app, post("/strict", extra));
    expect(answer.status).toBe(400);
    expect(
      (answer.body as { errors: { field: string; constraint: string }[] }).errors
        .map((e) => `${e.field}:${e.constraint}`)
        .sort(),
    ).toEqual(["address.secret:whitelistValidation", "admin:whitelistValidation"]);
    expect((await call(app, post("/orders", extra))).status).toBe(200); // by default unknown properties pass
  });

  test("malformed JSON, an empty body, a body that is not an object: 400; over the body limit: 413", async () => {
    const malformed = await call(app, post("/orders", null, "{nope"));
    const malformedError = (malformed.body as { error: string }).error;
    expect(malformedError).toMatch(/^request body is not valid JSON: /);
    expect(malformed).toEqual({
      status: 400,
      body: {
        error: malformedError,
        errors: [{ in: "body", field: "", constraint: "isJson", message: malformedError }],
      },
    });
    const empty = "request body is empty; expected JSON";
    expect(await call(app, post("/orders", null, ""))).toEqual({
      status: 400,
      body: { error: empty, errors: [{ in: "body", field: "", constraint: "isJson", message: empty }] },
    });
    for (const [json, got] of [
      [[valid], "an array"],
      ["text", "string"],
      [null, "null"],
      [5, "number"],
    ] as const) {
      expect(await call(app, post("/orders", json))).toEqual({
        status: 400,
        body: {
          error: "the body must be a JSON object",
          errors: [{ in: "body", field: "", constraint: "isObject", message: `expected a JSON object, got ${got}` }],
        },
      });
    }
    const big = JSON.stringify({ ...valid, note: "x".repeat(2000) });
    const limited = await inject(app, post("/orders", null, big), { bodyLimit: 1000 });
    expect(limited.status).toBe(413);
  });

  test("a body nested deeper than maxDepth is a 400 before class-transformer recurses into it", async () => {
    const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`; // {"a":1} is level 1
    const over = await call(app, post("/orders", null, deep(100_000)));
    expect(over).toEqual({
      status: 400,
      body: {
        error: "the body is nested deeper than 64 levels",
        errors: [{ in: "body", field: "", constraint: "maxDepth", message: "objects and arrays nest at most 64 deep" }],
      },
    });
    // 64 levels pass the depth check (and fail validation as usual); 65 do not
    expect((await call(app, post("/orders", null, deep(64)))).body).toMatchObject({ error: "the body is invalid" });
    expect((await call(app, post("/orders", null, deep(65)))).body).toMatchObject({
      errors: [{ constraint: "maxDepth" }],
    });
    class Shallow {
      @Route("POST /shallow")
      take(@Body(CreateOrder, { maxDepth: 2 }) order: CreateOrder) {
        return order.email;
      }
    }
    expect((await call(controllers([Shallow]), post("/shallow", valid))).body).toMatchObject({
      error: "the body is nested deeper than 2 levels",
    });
  });

  test("__proto__ and constructor keys in the JSON touch no prototype", async () => {
    const answer = await call(
      app,
      post(
        "/orders",
        null,
        `{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"email":"a@b.co","address":{"street":"s","country":"GB"},"lines":[{"sku":"a","qty":1}]}`,
      ),
    );
    expect(answer.status).toBe(200);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((CreateOrder.prototype as { polluted?: unknown }).polluted).toBeUndefined();
    expect((answer.body as { isDto: boolean }).isDto).toBe(true);
  });

  test("the same tree and answers as body(req, CreateOrder)", async () => {
    const functional = route("POST /orders", async (req) => {
      const [order] = await readParamsAsync(req, [(r) => body(r, CreateOrder)]);
      return {
        isDto: order instanceof CreateOrder,
        nested: order.address instanceof Address && order.lines.every((l) => l instanceof Line),
        order,
      };
    });
    class OrdersOnly {
      @Route("POST /orders")
      create(@Body() order: CreateOrder) {
        return {
          isDto: order instanceof CreateOrder,
          nested: order.address instanceof Address && order.lines.every((l) => l instanceof Line),
          order,
        };
      }
    }
    const routeOnly = controllers([OrdersOnly]);
    expect(shape(routeOnly)).toEqual(shape(functional));
    for (const request of [
      post("/orders", valid),
      post("/orders", { email: 1 }),
      post("/orders", null, "[1,"),
      post("/orders", []),
    ]) {
      expect(await call(routeOnly, request)).toEqual(await call(functional, request));
    }
  });

  test("without a DTO class it is a startup error", () => {
    class NoType {
      @Route("POST /")
      create(@Body() _order: unknown) {}
    }
    const e = expectControllerError(() => controllers([NoType]), "PARAM_TYPE", "NoType", "create");
    expect(e.message).toContain("@Body() on parameter 0 needs a DTO class");
    expect(() => Body("CreateOrder" as never)).toThrow("@Body: the type must be a class, got string");
  });
});

describe("parameters together", () => {
  class Mixed {
    @Route("PUT /items/id:Int")
    put(
      @PathVar("id") id: number,
      @Query("dry", Bool, { optional: true }) dry: boolean | undefined,
      @Header("if-match") etag: string,
      @Req() req: RoutedRequest,
      unused: unknown,
    ) {
      return { id, dry: dry ?? false, etag, method: req.method, unused: unused ?? null };
    }
  }

  test("path variables, query, header and the request in one method; undecorated parameters stay undefined", async () => {
    expect(
      await call(controllers([Mixed]), { method: "PUT", url: "/items/4?dry=true", headers: { "if-match": '"v1"' } }),
    ).toEqual({ status: 200, body: { id: 4, dry: true, etag: '"v1"', method: "PUT", unused: null } });
  });

  test("a path segment that does not parse is a mismatch (404), a query value that does not parse is a 400", async () => {
    const app = controllers([Mixed]);
    expect((await call(app, { method: "PUT", url: "/items/x", headers: { "if-match": "e" } })).status).toBe(404);
    expect((await call(app, { method: "PUT", url: "/items/4?dry=maybe", headers: { "if-match": "e" } })).status).toBe(
      400,
    );
  });

  test("every failing parameter in one 400: query, header and body fields together", async () => {
    class Order {
      @IsInt() qty!: number;
    }
    class Everything {
      @Route("POST /all")
      all(@Query("page", Int) page: number, @Header("x-key") key: string, @Body() order: Order) {
        return { page, key, qty: order.qty };
      }
    }
    const app = controllers([Everything]);
    const answer = await call(app, { ...post("/all", { qty: "many" }), url: "/all?page=x" });
    expect(answer).toEqual({
      status: 400,
      body: {
        error: 'the query parameter "page" is not a valid Int; the header "x-key" is required; the body is invalid',
        errors: [
          { in: "query", field: "page", constraint: "Int", message: '"x" is not a valid Int' },
          { in: "header", field: "x-key", constraint: "required", message: 'the header "x-key" is required (Text)' },
          { in: "body", field: "qty", constraint: "isInt", message: "qty must be an integer number" },
        ],
      },
    });
    // an error that is not a field's 400 (here the body limit) is answered as it is
    expect(
      (await inject(app, { ...post("/all", { qty: 1, pad: "x".repeat(100) }), url: "/all?page=x" }, { bodyLimit: 50 }))
        .status,
    ).toBe(413);
    expect(await call(app, { ...post("/all", { qty: 1 }), url: "/all?page=1", headers: { "x-key": "k" } })).toEqual({
      status: 200,
      body: { page: 1, key: "k", qty: 1 },
    });
  });

  test("Text is the default parser of the functional forms", () => {
    const req = { query: new URLSearchParams("a=1"), headers: new Headers({ b: "2" }) } as unknown as RoutedRequest;
    expect([queryParam(req, "a"), queryParam(req, "a", Text), headerParam(req, "B")]).toEqual(["1", "1", "2"]);
    // readParams keeps each reader's type, position by position
    const [n, s, none]: [number, string, undefined] = readParams(req, [
      (r) => queryParam(r, "a", Int),
      (r) => headerParam(r, "b"),
      undefined,
    ]);
    expect([n, s, none]).toEqual([1, "2", undefined]);
  });
});

describe("body() from the built package", () => {
  test("works from the ES module build too (its optional peers load without require)", () => {
    const script = `
      import { body } from "switchyard-router/decorators";
      import { IsInt } from "class-validator";
      class Dto {}
      IsInt()(Dto.prototype, "qty");
      const ok = await body({ json: async () => ({ qty: 2 }) }, Dto);
      let failed;
      try { await body({ json: async () => ({ qty: "x" }) }, Dto); } catch (e) { failed = [e.status, e.details.errors[0].constraint]; }
      console.log(JSON.stringify([ok instanceof Dto, ok.qty, failed]));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: path.resolve(__dirname, ".."),
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual([true, 2, [400, "isInt"]]);
  });
});
