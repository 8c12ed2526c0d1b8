import { z } from "zod";
import {
  alt,
  cookieSigner,
  inject,
  Int,
  json,
  registerPathType,
  route,
  schemaParser,
  type InjectRequest,
  type Route as Tree,
} from "../src";
import { Body, controllers, Cookie, Header, PathVar, Query, Route } from "../decorators";
import {
  arktypeKit,
  functionalApp,
  type Kit,
  type LibraryName,
  REQUESTS,
  valibotKit,
  zodKit,
} from "./helpers/schema-kits";

/*
 * The decorators with a Standard Schema wherever a parser or a DTO class goes — @Body(schema),
 * @Query(name, schema), @Query(name, schema, { array: true }), the whole-query @Query(schema),
 * @Header(name, schema), @Cookie(name, schema), and a path type made with schemaParser in a pattern —
 * answer every request exactly as the functional readers do (whose answers schema.functional.test.ts
 * pins), for zod, valibot and arktype.
 */

declare module "../src" {
  interface PathTypes {
    SlugZod: string;
    SlugValibot: string;
    SlugArktype: string;
  }
}

const KITS: Record<LibraryName, () => Kit> = { zod: zodKit, valibot: valibotKit, arktype: arktypeKit };
const SLUG = { zod: "SlugZod", valibot: "SlugValibot", arktype: "SlugArktype" } as const;

function decoratedApp(kit: Kit): Tree {
  registerPathType(schemaParser(SLUG[kit.name], kit.slug));
  class Shop {
    @Route("POST /orders")
    create(@Body(kit.order) order: unknown) {
      return json(order, { status: 201 });
    }

    @Route("GET /page")
    page(@Query("page", kit.page) page: number) {
      return { page };
    }

    @Route("GET /tags")
    tags(@Query("tag", kit.tags) tags: string[]) {
      return { tags };
    }

    @Route("GET /list")
    list(@Query(kit.list, { arrays: ["tag"] }) query: object) {
      return query;
    }

    @Route("GET /version")
    version(@Header("x-api-version", kit.version) version: string) {
      return { version };
    }

    @Route("GET /theme")
    theme(@Cookie("theme", kit.theme) theme: string) {
      return { theme };
    }

    @Route("GET /optional")
    optional(@Header("x-api-version", kit.version, { optional: true }) version: string | undefined) {
      return { version: version ?? null };
    }

    @Route("GET /all")
    all(
      @Query("page", kit.page) page: number,
      @Header("x-api-version", kit.version) version: string,
      @Query("count", Int) count: number,
    ) {
      return { page, version, count };
    }
  }
  // a pattern names the registered schema path type; the second route takes what it refuses
  class Posts {
    @Route(`GET /posts/slug:${SLUG[kit.name]}` as "GET /posts/slug:SlugZod")
    bySlug(@PathVar("slug") slug: string) {
      return { slug };
    }

    @Route("GET /posts/other:Text")
    other(@PathVar("other") other: string) {
      return { notASlug: other };
    }
  }
  return controllers([Shop, Posts]);
}

async function call(tree: Tree, request: InjectRequest): Promise<{ status: number; body: unknown }> {
  const response = await inject(tree, request);
  return { status: response.status, body: response.body === "" ? "" : JSON.parse(response.body) };
}

describe.each(["zod", "valibot", "arktype"] as const)("%s", (name) => {
  const kit = KITS[name]();
  const decorated = decoratedApp(kit);
  const functional = functionalApp(kit);

  test.each(REQUESTS.map((request) => [`${request.method ?? "GET"} ${request.url}`, request] as const))(
    "%s: the decorated controller answers as the functional readers do",
    async (_, request) => {
      expect(await call(decorated, request)).toEqual(await call(functional, request));
    },
  );

  test("an invalid body through @Body(schema): the one 400, every field by its path", async () => {
    const response = await call(decorated, {
      method: "POST",
      url: "/orders",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "ab", address: {}, lines: [{ qty: 1 }, { qty: 0 }] }),
    });
    expect(response.status).toBe(400);
    const fields = (response.body as { errors: { in: string; field: string }[] }).errors.map(
      (e) => `${e.in}:${e.field}`,
    );
    expect(fields.sort()).toEqual(["body:address.city", "body:lines.1.qty", "body:name"]);
  });
});

describe("declared types beside a schema", () => {
  test("a schema settles the parameter: its declared type is not cross-checked (a schema may convert)", () => {
    const kit = zodKit();
    class Loose {
      @Route("GET /a")
      a(@Query("page", kit.page) _page: string, @Header("x-v", kit.version) _v: number) {}
    }
    expect(() => controllers([Loose])).not.toThrow();
  });

  test("a schema query parameter declared as an array reads every value of the key", async () => {
    const tags = zodKit().tags;
    class Tags {
      @Route("GET /tags")
      tags(@Query("tag", tags) list: string[]) {
        return { list };
      }
    }
    expect(await call(controllers([Tags]), { url: "/tags?tag=ab&tag=cd" })).toEqual({
      status: 200,
      body: { list: ["ab", "cd"] },
    });
  });

  test("the decorators take a schema where they took a parser or a class, and nothing else", () => {
    expect(() => Query("x", { "~standard": { version: 1, vendor: "x" } } as never)).toThrow(
      "@Query: the type must be a parser",
    );
    expect(() => Body({} as never)).toThrow("@Body: the type must be a class, got object");
    expect(() => Query(42 as never)).toThrow("@Query: the type must be a class, got number");
    expect(() => Query(zodKit().list, { arrays: "tag" as never })).toThrow(
      "@Query: arrays must be a list of query keys",
    );
  });

  test("one route mixes schemas, parsers and a path type", async () => {
    const kit = valibotKit();
    class Mixed {
      @Route("GET /items/id:Int")
      get(@PathVar("id") id: number, @Query("page", kit.page) page: number, @Query("q") q: string) {
        return { id, page, q };
      }
    }
    const tree = alt(
      controllers([Mixed]),
      route("GET /fallback", () => "unused"),
    );
    expect(await call(tree, { url: "/items/7?q=desk" })).toEqual({ status: 200, body: { id: 7, page: 1, q: "desk" } });
    expect((await call(tree, { url: "/items/7?page=0" })).body).toEqual({
      error: 'the query parameter "page" is invalid; the query parameter "q" is required',
      errors: [
        { in: "query", field: "page", constraint: "min_value", message: "Invalid value: Expected >=1 but received 0" },
        { in: "query", field: "q", constraint: "required", message: 'the query parameter "q" is required (Text)' },
      ],
    });
  });
});

describe("@Cookie(name, schema, { signed })", () => {
  const signer = cookieSigner("a secret of thirty-two bytes or more!");
  class Session {
    @Route("GET /me")
    me(@Cookie("uid", z.coerce.number().int().min(1).default(0), { signed: signer }) uid: number) {
      return { uid };
    }
  }
  const app = controllers([Session]);

  test("the signature is checked first, then the value validated; not sent: the schema's default", async () => {
    expect(await call(app, { url: "/me", headers: { cookie: `uid=${await signer.sign("uid", "7")}` } })).toEqual({
      status: 200,
      body: { uid: 7 },
    });
    expect(await call(app, { url: "/me" })).toEqual({ status: 200, body: { uid: 0 } });
    expect(await call(app, { url: "/me", headers: { cookie: `uid=${await signer.sign("uid", "-1")}` } })).toEqual({
      status: 400,
      body: {
        error: 'the cookie "uid" is invalid',
        errors: [
          { in: "cookie", field: "uid", constraint: "too_small", message: "Too small: expected number to be >=1" },
        ],
      },
    });
    const forged = await call(app, { url: "/me", headers: { cookie: "uid=7" } });
    expect(forged.status).toBe(400);
    expect((forged.body as { errors: { constraint: string }[] }).errors[0]!.constraint).toBe("signature");
  });
});
