import * as v from "valibot";
import { z } from "zod";
import {
  alt,
  body,
  cookieParam,
  headerParam,
  inject,
  queryObject,
  queryParam,
  queryParams,
  route,
  type InjectRequest,
  type Route as Tree,
} from "../src";
import { Body, controllers, Cookie, Header, Query, Route } from "../decorators";

/*
 * Asynchronous validation, where the library allows it (zod's async refinements, valibot's *Async
 * schemas; arktype has none): every reader but a path type awaits it, functional and decorated alike;
 * its failure is the same 400. A schema that throws instead of reporting an issue is the app's fault: a
 * 500, reported to onError.
 */

/** A name is taken when a (simulated) database says so, after a tick. */
const taken = async (name: string) => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  return name === "taken";
};

const kits = {
  zod: z.string().refine(async (name) => !(await taken(name)), { message: "the name is taken" }),
  valibot: v.pipeAsync(
    v.string(),
    v.checkAsync(async (name) => !(await taken(name)), "the name is taken"),
  ),
};
const constraint = { zod: "custom", valibot: "check" } as const;

function functional(name: (typeof kits)[keyof typeof kits]): Tree {
  const asObject =
    name["~standard"].vendor === "zod" ? z.object({ name: kits.zod }) : v.objectAsync({ name: kits.valibot });
  return alt(
    route("POST /users", async (req) => body(req, asObject)),
    route("GET /q", async (req) => ({ name: await queryParam(req, "name", name) })),
    route("GET /qs", async (req) => ({ names: await queryParams(req, "name", z.array(kits.zod)) })),
    route("GET /whole", async (req) => queryObject(req, asObject)),
    route("GET /h", async (req) => ({ name: await headerParam(req, "x-name", name) })),
    route("GET /c", async (req) => ({ name: await cookieParam(req, "name", name) })),
  );
}

function decorated(name: (typeof kits)[keyof typeof kits]): Tree {
  const asObject =
    name["~standard"].vendor === "zod" ? z.object({ name: kits.zod }) : v.objectAsync({ name: kits.valibot });
  class Users {
    @Route("POST /users")
    create(@Body(asObject) user: object) {
      return user;
    }
    @Route("GET /q")
    q(@Query("name", name) value: string) {
      return { name: value };
    }
    @Route("GET /qs")
    qs(@Query("name", z.array(kits.zod), { array: true }) names: string[]) {
      return { names };
    }
    @Route("GET /whole")
    whole(@Query(asObject) query: object) {
      return query;
    }
    @Route("GET /h")
    h(@Header("x-name", name) value: string) {
      return { name: value };
    }
    @Route("GET /c")
    c(@Cookie("name", name) value: string) {
      return { name: value };
    }
  }
  return controllers([Users]);
}

async function call(tree: Tree, request: InjectRequest): Promise<{ status: number; body: unknown }> {
  const response = await inject(tree, request);
  return { status: response.status, body: response.body === "" ? "" : JSON.parse(response.body) };
}

const post = (value: unknown): InjectRequest => ({
  method: "POST",
  url: "/users",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
});

describe.each(["zod", "valibot"] as const)("%s", (library) => {
  const trees = { functional: functional(kits[library]), decorated: decorated(kits[library]) };
  const fail = (where: string, field: string, error: string) => ({
    status: 400,
    body: { error, errors: [{ in: where, field, constraint: constraint[library], message: "the name is taken" }] },
  });

  test.each(["functional", "decorated"] as const)("%s: every reader awaits the schema", async (form) => {
    const tree = trees[form];
    expect(await call(tree, post({ name: "free" }))).toEqual({ status: 200, body: { name: "free" } });
    expect(await call(tree, post({ name: "taken" }))).toEqual(fail("body", "name", "the body is invalid"));
    expect(await call(tree, { url: "/q?name=free" })).toEqual({ status: 200, body: { name: "free" } });
    expect(await call(tree, { url: "/q?name=taken" })).toEqual(
      fail("query", "name", 'the query parameter "name" is invalid'),
    );
    expect(await call(tree, { url: "/whole?name=taken" })).toEqual(fail("query", "name", "the query is invalid"));
    expect(await call(tree, { url: "/h", headers: { "x-name": "taken" } })).toEqual(
      fail("header", "x-name", 'the header "x-name" is invalid'),
    );
    expect(await call(tree, { url: "/c", headers: { cookie: "name=taken" } })).toEqual(
      fail("cookie", "name", 'the cookie "name" is invalid'),
    );
    const repeated = await call(tree, { url: "/qs?name=a&name=taken" });
    expect(repeated.body).toEqual({
      error: 'the query parameter "name" is invalid',
      errors: [{ in: "query", field: "name.1", constraint: "custom", message: "the name is taken" }],
    });
  });
});

test("a schema that throws is the app's fault: a 500, the error reported", async () => {
  const broken = {
    "~standard": {
      version: 1 as const,
      vendor: "hand-made",
      validate: () => {
        throw new Error("the schema is broken");
      },
    },
  };
  const errors: unknown[] = [];
  const tree = alt(
    route("POST /b", async (req) => body(req, broken)),
    route("GET /q", async (req) => ({ q: await queryParam(req, "q", broken) })),
  );
  const onError = (error: unknown) => void errors.push(error);
  expect((await inject(tree, { ...post({}), url: "/b" }, { onError })).status).toBe(500);
  expect((await inject(tree, { url: "/q?q=1" }, { onError })).status).toBe(500);
  expect(errors.map(String)).toEqual(["Error: the schema is broken", "Error: the schema is broken"]);
});

test("a hand-written Standard Schema (no library) works like any other", async () => {
  const even = {
    "~standard": {
      version: 1 as const,
      vendor: "mine",
      validate: (value: unknown) =>
        typeof value === "string" && Number(value) % 2 === 0
          ? { value: Number(value) }
          : { issues: [{ message: "not an even number", path: [] }] },
    },
  };
  const tree = route("GET /even", async (req) => ({ n: await queryParam(req, "n", even) }));
  expect(await call(tree, { url: "/even?n=4" })).toEqual({ status: 200, body: { n: 4 } });
  expect(await call(tree, { url: "/even?n=3" })).toEqual({
    status: 400,
    body: {
      error: 'the query parameter "n" is invalid',
      errors: [{ in: "query", field: "n", constraint: "invalid", message: "not an even number" }],
    },
  });
});
