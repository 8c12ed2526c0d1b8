import * as v from "valibot";
import { z } from "zod";
import {
  alt,
  inject,
  interpreter,
  method,
  path,
  pathEnd,
  pathVar,
  registerPathType,
  route,
  schemaParser,
  urlFor,
  type Route as Tree,
} from "../src";
import { controllers, PathVar, Route } from "../decorators";
import { loadArktype } from "./helpers/arktype";

/*
 * schemaParser: a path type from a synchronous Standard Schema. A segment it refuses is a mismatch;
 * an asynchronous schema is refused when the parser is made (startup), told by valibot's `async` flag
 * or by a probe whose validate gives a promise; one whose asynchronous part no probe reaches falls to
 * the request-time guard (a mismatch, said once on the console).
 */

declare module "../src" {
  interface PathTypes {
    ItemNo: number;
  }
}

const ASYNC_REFUSED =
  "but a path type decides which route answers, synchronously. Use a synchronous schema here, and validate asynchronously in the handler (a query value, a header, a cookie or the body may use an asynchronous schema)";

describe("asynchronous schemas are refused at startup", () => {
  test("zod: a refinement that returns a promise (found by the probe)", () => {
    const schema = z.string().refine(async (s) => s.length > 0);
    expect(() => schemaParser("Checked", schema)).toThrow(
      `schemaParser("Checked"): the zod schema is asynchronous (its validate gave a promise for ""), ${ASYNC_REFUSED}`,
    );
  });

  test("valibot: a schema made with the *Async functions (told by its async flag)", () => {
    const schema = v.pipeAsync(
      v.string(),
      v.checkAsync(async (s) => s.length > 0),
    );
    expect(() => schemaParser("Checked", schema)).toThrow(
      `schemaParser("Checked"): the valibot schema is asynchronous (it is marked async), ${ASYNC_REFUSED}`,
    );
  });

  test("an asynchronous part behind a check no probe passes: found with `examples`", () => {
    const schema = z
      .string()
      .startsWith("p-")
      .pipe(z.string().refine(async () => true));
    expect(() => schemaParser("Post", schema)).not.toThrow();
    expect(() => schemaParser("Post", schema, { examples: ["p-1"] })).toThrow(
      `schemaParser("Post"): the zod schema is asynchronous (its validate gave a promise for "p-1"), ${ASYNC_REFUSED}`,
    );
  });

  test("…and missed by the probes, it never matches a request: a mismatch, said once with console.error", async () => {
    const schema = z
      .string()
      .startsWith("p-")
      .pipe(z.string().refine(async () => true));
    const Post = schemaParser("Post", schema);
    const tree = alt(
      method(
        "GET",
        path(
          "/posts",
          pathVar(
            "id",
            Post,
            pathEnd((req) => ({ id: req.vars.id })),
          ),
        ),
      ),
      route("GET /posts/id:Text", () => "the next route"),
    );
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 2; i++) {
        const response = await inject(tree, { url: "/posts/p-1" });
        expect([response.status, response.body]).toEqual([200, "the next route"]);
      }
      expect(error.mock.calls).toEqual([
        [
          'switchyard-router: path type Post: its zod schema validated the segment "p-1" asynchronously, so the segment did not match; ' +
            "a path type must be synchronous (give schemaParser an example that reaches the asynchronous part, and it is refused at startup)",
        ],
      ]);
    } finally {
      error.mockRestore();
    }
  });
});

describe("a synchronous schema as a path type", () => {
  const ItemNo = schemaParser("ItemNo", z.coerce.number().int().min(1));

  test.each([
    ["compiled", undefined],
    ["interpreted", interpreter],
  ] as const)(
    "%s: its output is the variable; a refused segment falls through to the next route",
    async (_, dispatcher) => {
      const tree: Tree = alt(
        method(
          "GET",
          path(
            "/items",
            pathVar(
              "no",
              ItemNo,
              pathEnd((req) => ({ no: req.vars.no, type: typeof req.vars.no })),
            ),
          ),
        ),
        route("GET /items/other:Text", (req) => ({ other: req.vars.other })),
      );
      const options = dispatcher === undefined ? undefined : { dispatcher };
      const answer = async (url: string) => JSON.parse((await inject(tree, { url }, options)).body) as unknown;
      expect(await answer("/items/12")).toEqual({ no: 12, type: "number" });
      expect(await answer("/items/0")).toEqual({ other: "0" });
      expect(await answer("/items/x")).toEqual({ other: "x" });
    },
  );

  test("registered, patterns and decorators name it; urlFor writes it back", async () => {
    registerPathType(ItemNo);
    const byNo = (req: { vars: { no: number } }) => ({ no: req.vars.no });
    const tree = route("GET /items/no:ItemNo", byNo);
    expect(JSON.parse((await inject(tree, { url: "/items/5" })).body)).toEqual({ no: 5 });
    expect(urlFor(tree, byNo, { no: 5 })).toBe("/items/5");
    class Items {
      @Route("GET /items/no:ItemNo")
      get(@PathVar("no") no: number) {
        return { no };
      }
    }
    expect(JSON.parse((await inject(controllers([Items]), { url: "/items/7" })).body)).toEqual({ no: 7 });
    expect((await inject(controllers([Items]), { url: "/items/0" })).status).toBe(404);
  });

  test("toUrlPiece: primitives written as they are; other values need the option", () => {
    expect(ItemNo.toUrlPiece(12)).toBe("12");
    const Pair = schemaParser(
      "Pair",
      z.string().transform((s) => ({ s })),
    );
    expect(() => Pair.toUrlPiece({ s: "a" })).toThrow(
      "path type Pair: give schemaParser a toUrlPiece option to write object values into a path",
    );
    const Written = schemaParser(
      "Written",
      z.string().transform((s) => ({ s })),
      { toUrlPiece: (value) => value.s },
    );
    expect(Written.toUrlPiece({ s: "a" })).toBe("a");
  });

  test("the OpenAPI schema: the library's own JSON Schema when it has one (zod, arktype), else none", () => {
    const { type } = loadArktype();
    expect(schemaParser("S1", z.string().regex(/^[a-z]+$/)).openApiSchema).toEqual({
      type: "string",
      pattern: "^[a-z]+$",
    });
    expect(schemaParser("S2", z.coerce.number().int().min(1)).openApiSchema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect(schemaParser("S3", type("string >= 2")).openApiSchema).toEqual({ type: "string", minLength: 2 });
    expect(schemaParser("S4", v.pipe(v.string(), v.minLength(2))).openApiSchema).toBeUndefined();
    expect(schemaParser("S5", v.string(), { openApiSchema: { type: "string" } }).openApiSchema).toEqual({
      type: "string",
    });
  });

  test("misuse: a TypeError at once", () => {
    expect(() => schemaParser("", z.string())).toThrow("schemaParser: the name must be a non-empty string");
    expect(() => schemaParser("X", { parse: () => 1 } as never)).toThrow(
      'schemaParser("X"): expected a Standard Schema (zod, valibot, arktype, …)',
    );
  });
});

describe("pathVar takes a schema directly", () => {
  const Slug = z.string().regex(/^[a-z0-9-]+$/);
  const tree: Tree = alt(
    method(
      "GET",
      path(
        "/posts",
        pathVar(
          "slug",
          Slug,
          pathEnd((req) => ({ slug: req.vars.slug satisfies string })),
        ),
      ),
    ),
    method(
      "GET",
      path(
        "/posts",
        pathVar(
          "other",
          z.string(),
          pathEnd(() => "fell through"),
        ),
      ),
    ),
  );

  test.each([
    ["interpreter", interpreter],
    ["compiled", undefined],
  ] as const)("a segment the schema refuses is a mismatch (%s)", async (_name, dispatcher) => {
    const options = dispatcher === undefined ? {} : { dispatcher };
    expect(JSON.parse((await inject(tree, { url: "/posts/hello-world" }, options)).body)).toEqual({
      slug: "hello-world",
    });
    expect((await inject(tree, { url: "/posts/Not%20A%20Slug" }, options)).body).toBe("fell through");
  });

  test("an asynchronous schema is refused when the route is built", () => {
    expect(() =>
      pathVar(
        "slug",
        z.string().refine(async () => true),
        pathEnd(() => "x"),
      ),
    ).toThrow(/asynchronous/);
  });

  test("neither a parser nor a schema", () => {
    expect(() =>
      pathVar(
        "slug",
        { validate: () => true } as never,
        pathEnd(() => "x"),
      ),
    ).toThrow(
      'pathVar("slug"): expected a parser (an object or class with parseUrlPiece) or a Standard Schema, got object',
    );
  });
});
