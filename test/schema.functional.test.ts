import { inject, queryParam, readParams, route, type InjectRequest, type Route as Tree } from "../src";
import { arktypeKit, functionalApp, type Kit, type LibraryName, valibotKit, zodKit } from "./helpers/schema-kits";

/*
 * The functional readers with a Standard Schema, for each library (zod 4, valibot 1, arktype 2): body(),
 * queryParam() (one value), queryParams() (a repeated key), queryObject() (the whole query),
 * headerParam(), cookieParam(), and schemaParser() for a path type. Every answer is compared whole:
 * status and JSON body, the 400's failing fields with their paths, constraints and messages as each
 * library words them.
 */

const KITS: Record<LibraryName, () => Kit> = { zod: zodKit, valibot: valibotKit, arktype: arktypeKit };
async function call(tree: Tree, request: InjectRequest): Promise<{ status: number; body: unknown }> {
  const response = await inject(tree, request);
  return { status: response.status, body: response.body === "" ? "" : JSON.parse(response.body) };
}

const post = (url: string, value: unknown, raw?: string): InjectRequest => ({
  method: "POST",
  url,
  headers: { "content-type": "application/json" },
  body: raw ?? JSON.stringify(value),
});

const VALID_ORDER = { name: "desk", address: { city: "Oslo" }, lines: [{ qty: 2 }], extra: true };
const INVALID_ORDER = { name: "ab", address: {}, lines: [{ qty: 1 }, { qty: 0 }] };

/** What this engine's `JSON.parse` says of `text`. */
function jsonErrorOf(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

/** A 400 as every reader answers it. */
const bad = (error: string, ...errors: [string, string, string, string][]) => ({
  status: 400,
  body: {
    error,
    errors: errors.map(([where, field, constraint, message]) => ({ in: where, field, constraint, message })),
  },
});

describe.each(["zod", "valibot", "arktype"] as const)("%s", (name) => {
  const kit = KITS[name]();
  const tree = functionalApp(kit);

  test("body(): a valid body gives the schema's output (zod and valibot drop unknown keys, arktype keeps them)", async () => {
    const { extra: _, ...declared } = VALID_ORDER;
    expect(await call(tree, post("/orders", VALID_ORDER))).toEqual({
      status: 201,
      body: name === "arktype" ? VALID_ORDER : declared,
    });
  });

  test("body(): an invalid body is one 400 listing every failing field by its path", async () => {
    const expected = {
      zod: bad(
        "the body is invalid",
        ["body", "name", "too_small", "Too small: expected string to have >=3 characters"],
        ["body", "address.city", "invalid_type", "Invalid input: expected string, received undefined"],
        ["body", "lines.1.qty", "too_small", "Too small: expected number to be >=1"],
      ),
      valibot: bad(
        "the body is invalid",
        ["body", "name", "min_length", "Invalid length: Expected >=3 but received 2"],
        ["body", "address.city", "object", 'Invalid key: Expected "city" but received undefined'],
        ["body", "lines.1.qty", "min_value", "Invalid value: Expected >=1 but received 0"],
      ),
      arktype: bad(
        "the body is invalid",
        ["body", "address.city", "required", "address.city must be a string (was missing)"],
        ["body", "lines.1.qty", "min", "lines[1].qty must be at least 1 (was 0)"],
        ["body", "name", "minLength", "name must be at least length 3 (was 2)"],
      ),
    }[name];
    expect(await call(tree, post("/orders", INVALID_ORDER))).toEqual(expected);
  });

  test("body(): malformed JSON is the same 400 for every library; a body of the wrong shape is the schema's", async () => {
    const malformed = `request body is not valid JSON: ${jsonErrorOf('{"name":')}`;
    expect(await call(tree, post("/orders", null, '{"name":'))).toEqual(
      bad(malformed, ["body", "", "isJson", malformed]),
    );
    const expected = {
      zod: ["invalid_type", "Invalid input: expected object, received string"],
      valibot: ["object", 'Invalid type: Expected Object but received "desk"'],
      arktype: ["domain", "must be an object (was a string)"],
    }[name];
    expect(await call(tree, post("/orders", "desk"))).toEqual(
      bad("the body is invalid", ["body", "", expected[0]!, expected[1]!]),
    );
  });

  test("queryParam(): the value converted by the schema; not sent: its default; invalid: a 400 naming the parameter", async () => {
    expect(await call(tree, { url: "/page?page=3" })).toEqual({ status: 200, body: { page: 3 } });
    expect(await call(tree, { url: "/page" })).toEqual({ status: 200, body: { page: 1 } });
    const zero = {
      zod: ["too_small", "Too small: expected number to be >=1"],
      valibot: ["min_value", "Invalid value: Expected >=1 but received 0"],
      arktype: ["min", "must be at least 1 (was 0)"],
    }[name];
    expect(await call(tree, { url: "/page?page=0" })).toEqual(
      bad('the query parameter "page" is invalid', ["query", "page", zero[0]!, zero[1]!]),
    );
    const word = {
      zod: ["invalid_type", "Invalid input: expected number, received NaN"],
      valibot: ["to_number", "Invalid number: Received NaN"],
      arktype: ["pattern", 'must be a well-formed integer string (was "x")'],
    }[name];
    expect(await call(tree, { url: "/page?page=x" })).toEqual(
      bad('the query parameter "page" is invalid', ["query", "page", word[0]!, word[1]!]),
    );
  });

  test("queryParams(): the schema gets every value of the repeated key; a failing one is named by its index", async () => {
    expect(await call(tree, { url: "/tags?tag=ab&tag=cd" })).toEqual({ status: 200, body: { tags: ["ab", "cd"] } });
    expect(await call(tree, { url: "/tags" })).toEqual({ status: 200, body: { tags: [] } });
    const short = {
      zod: ["too_small", "Too small: expected string to have >=2 characters"],
      valibot: ["min_length", "Invalid length: Expected >=2 but received 1"],
      arktype: ["minLength", "value at [1] must be at least length 2 (was 1)"],
    }[name];
    expect(await call(tree, { url: "/tags?tag=ab&tag=c" })).toEqual(
      bad('the query parameter "tag" is invalid', ["query", "tag.1", short[0]!, short[1]!]),
    );
    const many = {
      zod: ["too_big", "Too big: expected array to have <=2 items"],
      valibot: ["max_length", "Invalid length: Expected <=2 but received 3"],
      arktype: ["maxLength", "must be at most length 2 (was 3)"],
    }[name];
    expect(await call(tree, { url: "/tags?tag=ab&tag=cd&tag=ef" })).toEqual(
      bad('the query parameter "tag" is invalid', ["query", "tag", many[0]!, many[1]!]),
    );
  });

  test("queryObject(): the whole query, a key in `arrays` always an array; every failing key in one 400", async () => {
    expect(await call(tree, { url: "/list?page=2&tag=a&sort=asc" })).toEqual({
      status: 200,
      body: { page: 2, tag: ["a"], sort: "asc" },
    });
    expect(await call(tree, { url: "/list" })).toEqual({ status: 200, body: { page: 1, tag: [] } });
    expect(await call(tree, { url: "/list?tag=a&tag=b&__proto__=x" })).toEqual({
      status: 200,
      body: { page: 1, tag: ["a", "b"], ...(name === "arktype" ? { ["__proto__"]: "x" } : {}) },
    });
    const expected = {
      zod: bad(
        "the query is invalid",
        ["query", "page", "too_small", "Too small: expected number to be >=1"],
        ["query", "sort", "invalid_value", 'Invalid option: expected one of "asc"|"desc"'],
      ),
      valibot: bad(
        "the query is invalid",
        ["query", "page", "min_value", "Invalid value: Expected >=1 but received 0"],
        ["query", "sort", "picklist", 'Invalid type: Expected ("asc" | "desc") but received "up"'],
      ),
      arktype: bad(
        "the query is invalid",
        ["query", "sort", "union", 'sort must be "asc" or "desc" (was "up")'],
        ["query", "page", "min", "page must be at least 1 (was 0)"],
      ),
    }[name];
    expect(await call(tree, { url: "/list?page=0&sort=up" })).toEqual(expected);
  });

  test("headerParam(): a required header; not sent, or refused, a 400", async () => {
    expect(await call(tree, { url: "/version", headers: { "X-API-Version": "2" } })).toEqual({
      status: 200,
      body: { version: "2" },
    });
    expect(await call(tree, { url: "/version" })).toEqual(
      bad('the header "x-api-version" is required', [
        "header",
        "x-api-version",
        "required",
        'the header "x-api-version" is required',
      ]),
    );
    const three = {
      zod: ["invalid_value", 'Invalid option: expected one of "1"|"2"'],
      valibot: ["picklist", 'Invalid type: Expected ("1" | "2") but received "3"'],
      arktype: ["union", 'must be "1" or "2" (was "3")'],
    }[name];
    expect(await call(tree, { url: "/version", headers: { "x-api-version": "3" } })).toEqual(
      bad('the header "x-api-version" is invalid', ["header", "x-api-version", three[0]!, three[1]!]),
    );
  });

  test("optional: a value not sent is undefined, the schema not asked; a value sent is still validated", async () => {
    expect(await call(tree, { url: "/optional" })).toEqual({ status: 200, body: { version: null } });
    expect((await call(tree, { url: "/optional", headers: { "x-api-version": "3" } })).status).toBe(400);
  });

  test("cookieParam(): the schema's default when not sent; a refused value is a 400 naming the cookie", async () => {
    expect(await call(tree, { url: "/theme", headers: { cookie: "theme=dark" } })).toEqual({
      status: 200,
      body: { theme: "dark" },
    });
    expect(await call(tree, { url: "/theme" })).toEqual({ status: 200, body: { theme: "light" } });
    const blue = {
      zod: ["invalid_value", 'Invalid option: expected one of "light"|"dark"'],
      valibot: ["picklist", 'Invalid type: Expected ("light" | "dark") but received "blue"'],
      arktype: ["predicate", 'must be undefined, "dark" or "light" (was "blue")'],
    }[name];
    expect(await call(tree, { url: "/theme", headers: { cookie: "theme=blue" } })).toEqual(
      bad('the cookie "theme" is invalid', ["cookie", "theme", blue[0]!, blue[1]!]),
    );
  });

  test("schemaParser(): a path type; a segment the schema refuses is a mismatch (the next route answers)", async () => {
    expect(await call(tree, { url: "/posts/hello-world" })).toEqual({ status: 200, body: { slug: "hello-world" } });
    expect(await call(tree, { url: "/posts/Bad_Slug" })).toEqual({ status: 200, body: { notASlug: "Bad_Slug" } });
  });

  test("readParamsAsync(): schema readers and parser readers answer every failing field in one 400", async () => {
    expect(await call(tree, { url: "/all?page=4&count=2", headers: { "x-api-version": "1" } })).toEqual({
      status: 200,
      body: { page: 4, version: "1", count: 2 },
    });
    const response = await call(tree, { url: "/all?page=0&count=x" });
    expect(response.status).toBe(400);
    expect((response.body as { errors: { field: string; constraint: string }[] }).errors.map((e) => e.field)).toEqual([
      "page",
      "x-api-version",
      "count",
    ]);
  });
});

describe("readParams (synchronous) refuses a reader that gives a promise", () => {
  test("a schema reader in readParams is a TypeError (a 500), not a promise handed on unchecked", async () => {
    const kit = zodKit();
    const tree = route("GET /sync", (req) => {
      const [page] = readParams(req, [(r) => queryParam(r, "page", kit.page)]);
      return { page: typeof page };
    });
    const errors: unknown[] = [];
    const response = await inject(tree, { url: "/sync?page=x" }, { onError: (error) => void errors.push(error) });
    expect(response.status).toBe(500);
    expect(String(errors[0])).toBe(
      "TypeError: readParams: reader 0 gave a promise (a Standard Schema, a body or a signed cookie is read asynchronously): use readParamsAsync",
    );
  });
});
