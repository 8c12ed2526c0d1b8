import {
  alt,
  Bool,
  Day,
  type DispatcherFactory,
  guard,
  type InjectRequest,
  Int,
  inject as injectWith,
  isHttpError,
  method,
  type PipelineOptions,
  path,
  pathEnd,
  pathVar,
  type RequestHeaders,
  type Route,
  routeMismatch,
  Text,
} from "../../src";
import { INHERITS_NOTHING, inheritance } from "../helpers/vars";

/*
 * The dispatcher spec: the routing every dispatcher must give, one named test per rule of spec
 * sections 4.2, 4.3 and 7, plus the path rules of DESIGN.md, guards, and the request a handler
 * receives, each behind `inject` (the server's pipeline: no match → 404, empty body). A dispatcher's
 * own test file runs it under its name, as Hono's routers run `runTest(name, makeRouter)` from
 * common.case.test.ts:
 *
 *   runDispatcherSpec("interpreter (reference)", interpreter); // test/interpret.test.ts
 *   runDispatcherSpec("compiled", (tree) => compile(tree).dispatch); // test/compile.test.ts
 */

const named = (name: string) => (): string => name;

/**
 * Defines the spec's tests for one dispatcher, in a describe block "dispatcher spec: <name>".
 * `dispatcher` is the factory under test; `undefined` tests the pipeline's default (what
 * `toApplication` and `inject` use when given none).
 */
export function runDispatcherSpec(name: string, dispatcher: DispatcherFactory | undefined): void {
  function inject(tree: Route, request: InjectRequest, options: PipelineOptions = {}): ReturnType<typeof injectWith> {
    return injectWith(tree, request, dispatcher === undefined ? options : { dispatcher, ...options });
  }

  async function send(tree: Route, url: string, m = "GET"): Promise<{ status: number; body: string }> {
    const { status, body } = await inject(tree, { method: m, url });
    return { status, body };
  }

  /** True when some route answered (every handler in these tests answers 200 or 204). */
  async function matches(tree: Route, url: string, m = "GET"): Promise<boolean> {
    return (await inject(tree, { method: m, url })).status !== 404;
  }

  describe(`dispatcher spec: ${name}`, () => {
    describe("spec 4.2 function table", () => {
      test("spec 4.2 method: succeeds when the request method equals the given method", async () => {
        expect(await send(method("POST", named("p")), "/", "POST")).toEqual({ status: 200, body: "p" });
      });
      test("spec 4.2 method: on failure invokes routeMismatch (the next alternative is tried)", async () => {
        const tree = alt(method("POST", named("p")), named("fallback"));
        expect(await send(tree, "/", "GET")).toEqual({ status: 200, body: "fallback" });
      });
      test("spec 4.2 path: succeeds when the request path begins with the literal, consuming its segments", async () => {
        const tree = path("/api", (request) => ({ rest: request.rest }));
        expect(await send(tree, "/api/users/7")).toEqual({ status: 200, body: '{"rest":["users","7"]}' });
        expect(await send(tree, "/api")).toEqual({ status: 200, body: '{"rest":[]}' });
      });
      test("spec 4.2 path: on failure invokes routeMismatch", async () => {
        const tree = alt(path("/api", named("api")), named("fallback"));
        expect((await send(tree, "/other")).body).toBe("fallback");
      });
      test("spec 4.2 pathVar: succeeds when the next unconsumed segment parses as the type", async () => {
        const tree = path(
          "/u",
          pathVar("id", Int, (request) => ({ id: request.vars.id, rest: request.rest })),
        );
        expect(await send(tree, "/u/42/x")).toEqual({ status: 200, body: '{"id":42,"rest":["x"]}' });
      });
      test("spec 4.2 pathVar: on failure invokes routeMismatch", async () => {
        const tree = alt(pathVar("id", Int, named("int")), named("fallback"));
        expect((await send(tree, "/abc")).body).toBe("fallback");
        // no segment left is a failure too
        expect((await send(tree, "/")).body).toBe("fallback");
      });
      test("spec 4.2 pathEnd: succeeds when no unconsumed segment remains", async () => {
        expect(await send(path("/a", pathEnd(named("end"))), "/a")).toEqual({ status: 200, body: "end" });
        expect(await send(pathEnd(named("root")), "/")).toEqual({ status: 200, body: "root" });
      });
      test("spec 4.2 pathEnd: on failure invokes routeMismatch", async () => {
        const tree = alt(path("/a", pathEnd(named("end"))), named("fallback"));
        expect((await send(tree, "/a/b")).body).toBe("fallback");
      });
    });

    describe("spec 4.2 rules", () => {
      test("spec 4.2 rule 1: the functions chain in any order", async () => {
        const handler = (request: { vars: { id: number } }): string => `id=${request.vars.id}`;
        const orders: Route[] = [
          method("GET", path("/u", pathVar("id", Int, pathEnd(handler)))),
          path("/u", method("GET", pathVar("id", Int, pathEnd(handler)))),
          path("/u", pathVar("id", Int, method("GET", pathEnd(handler)))),
          path("/u", pathVar("id", Int, pathEnd(method("GET", handler)))),
        ];
        for (const tree of orders) {
          expect(await send(tree, "/u/5")).toEqual({ status: 200, body: "id=5" });
          expect((await send(tree, "/u/5", "POST")).status).toBe(404);
          expect((await send(tree, "/u/x")).status).toBe(404);
          expect((await send(tree, "/u/5/6")).status).toBe(404);
        }
      });

      test("spec 4.2 rule 2: a successful pathVar assigns the parsed value under its label, then runs next", async () => {
        const seen: unknown[] = [];
        const tree = pathVar(
          "n",
          Int,
          pathVar(
            "on",
            Day,
            pathVar(
              "flag",
              Bool,
              pathEnd((request) => {
                seen.push(request.vars);
                return "ok";
              }),
            ),
          ),
        );
        expect((await send(tree, "/-3/2024-02-29/TRUE")).status).toBe(200);
        expect(seen).toHaveLength(1);
        const vars = seen[0] as { n: unknown; on: unknown; flag: unknown };
        expect(vars.n).toBe(-3); // a number, not the string "-3"
        expect(vars.on).toBeInstanceOf(Day);
        expect(String(vars.on)).toBe("2024-02-29");
        expect(vars.flag).toBe(true);
        expect(Object.keys(vars).sort()).toEqual(["flag", "n", "on"]);
      });

      test("spec 4.2 rule 3: a segment that cannot be parsed is a mismatch, not a separate error", async () => {
        const errors: unknown[] = [];
        const tree = path("/u", pathVar("id", Int, pathEnd(named("int"))));
        for (const bad of ["x", "1.5", "", "99999999999999999999"]) {
          const response = await inject(tree, { url: `/u/${bad}` }, { onError: (e) => errors.push(e) });
          expect(response.status).toBe(404);
          expect(response.body).toBe("");
        }
        expect(errors).toEqual([]);
      });

      test("spec 4.2 rule 4: method GET $ path /api/user $ pathVar userId Int $ pathEnd accepts GET /api/user/<Int> only", async () => {
        const tree = method(
          "GET",
          path(
            "/api/user",
            pathVar(
              "userId",
              Int,
              pathEnd((request) => ({ userId: request.vars.userId })),
            ),
          ),
        );
        expect(await send(tree, "/api/user/17")).toEqual({ status: 200, body: '{"userId":17}' });
        expect((await send(tree, "/api/user/17", "POST")).status).toBe(404);
        expect((await send(tree, "/api/user/seventeen")).status).toBe(404);
        expect((await send(tree, "/api/user")).status).toBe(404);
        expect((await send(tree, "/api/user/17/x")).status).toBe(404);
        expect((await send(tree, "/api/users/17")).status).toBe(404);
        expect((await send(tree, "/API/user/17")).status).toBe(404);
      });
    });

    describe("spec 4.3 rules", () => {
      test("spec 4.3 rule 1: routed arrows combine with <+> (alt)", async () => {
        const tree = alt(path("/a", pathEnd(named("a"))), path("/b", pathEnd(named("b"))));
        expect((await send(tree, "/a")).body).toBe("a");
        expect((await send(tree, "/b")).body).toBe("b");
      });

      test("spec 4.3 rule 2: alternatives are tried left to right; the first match answers and later ones are not tried", async () => {
        const tried: string[] = [];
        const tracked = (name: string) => (): string => {
          tried.push(name);
          return name;
        };
        const tree = alt(
          path("/x", pathEnd(tracked("first-other"))),
          pathVar("any", Text, pathEnd(tracked("second"))),
          pathVar("n", Int, pathEnd(tracked("third"))),
        );
        expect((await send(tree, "/7")).body).toBe("second");
        expect(tried).toEqual(["second"]);
        // order, not specificity, decides: swapping the two gives the other answer
        const swapped = alt(pathVar("n", Int, pathEnd(named("int"))), pathVar("any", Text, pathEnd(named("text"))));
        expect((await send(swapped, "/7")).body).toBe("int");
        expect((await send(swapped, "/seven")).body).toBe("text");
      });

      test("spec 4.3 rule 3: routeMismatch() returned by a handler tries the next alternative", async () => {
        const tree = alt(
          pathVar("n", Int, (request) => (request.vars.n > 10 ? routeMismatch() : "small")),
          named("next"),
        );
        expect((await send(tree, "/5")).body).toBe("small");
        expect((await send(tree, "/50")).body).toBe("next");
      });

      test("spec 4.3 rule 3: routeMismatch() from a promise (async handler) tries the next alternative", async () => {
        const tree = alt(
          async () => {
            await new Promise((resolve) => setImmediate(resolve));
            return routeMismatch();
          },
          () => Promise.resolve(routeMismatch()),
          named("third"),
        );
        expect((await send(tree, "/")).body).toBe("third");
      });

      test("spec 4.3 rule 3: routeMismatch() from the last alternative is a 404", async () => {
        const tree = alt(
          () => routeMismatch(),
          () => routeMismatch(),
        );
        expect(await send(tree, "/")).toEqual({ status: 404, body: "" });
      });

      test("spec 4.3 rule 4: when no alternative matches, the status is 404", async () => {
        const tree = alt(path("/a", pathEnd(named("a"))), method("POST", named("post")));
        expect(await send(tree, "/b")).toEqual({ status: 404, body: "" });
      });

      test("spec 4.3 rule 5: a common method and path prefix factor out over a <+> of inner routes", async () => {
        const tree = method(
          "GET",
          path(
            "/api",
            alt(
              path(
                "/user",
                pathVar(
                  "userId",
                  Int,
                  pathEnd((request) => `user ${request.vars.userId}`),
                ),
              ),
              path("/health", pathEnd(named("healthy"))),
            ),
          ),
        );
        expect((await send(tree, "/api/user/3")).body).toBe("user 3");
        expect((await send(tree, "/api/health")).body).toBe("healthy");
        expect((await send(tree, "/api/health", "POST")).status).toBe(404);
        expect((await send(tree, "/user/3")).status).toBe(404);
        expect((await send(tree, "/api/user/3/more")).status).toBe(404);
      });
    });

    describe("spec 7 errors", () => {
      test("spec 7 row 1: the method does not match → routeMismatch, the next alternative is tried", async () => {
        const tree = alt(method("DELETE", named("delete")), method("GET", named("get")));
        expect((await send(tree, "/", "GET")).body).toBe("get");
        expect((await send(tree, "/", "DELETE")).body).toBe("delete");
      });
      test("spec 7 row 2: a literal path component does not match → routeMismatch", async () => {
        const tree = alt(path("/a/b", named("ab")), path("/a/c", named("ac")));
        expect((await send(tree, "/a/c")).body).toBe("ac");
      });
      test("spec 7 row 3: a segment that cannot be parsed as the variable type → routeMismatch", async () => {
        const tree = alt(
          pathVar("n", Int, named("int")),
          pathVar("b", Bool, named("bool")),
          pathVar("t", Text, named("text")),
        );
        expect((await send(tree, "/1")).body).toBe("int");
        expect((await send(tree, "/false")).body).toBe("bool");
        expect((await send(tree, "/zzz")).body).toBe("text");
      });
      test("spec 7 row 4: extra path segments at pathEnd → routeMismatch", async () => {
        const tree = alt(path("/a", pathEnd(named("exact"))), path("/a", named("prefix")));
        expect((await send(tree, "/a")).body).toBe("exact");
        expect((await send(tree, "/a/b")).body).toBe("prefix");
      });
      test("spec 7 row 5: no combined alternative matches → HTTP 404 (empty body)", async () => {
        const tree = alt(method("POST", named("post")), path("/x", named("x")));
        const response = await inject(tree, { url: "/y" });
        expect(response.status).toBe(404);
        expect(response.body).toBe("");
      });
    });

    describe("DESIGN path semantics", () => {
      test("path('/') consumes nothing", async () => {
        const tree = path("/", (request) => ({ rest: request.rest }));
        expect((await send(tree, "/a/b")).body).toBe('{"rest":["a","b"]}');
        expect(await send(path("/", pathEnd(named("root"))), "/")).toEqual({ status: 200, body: "root" });
      });
      test("/a/ is not /a (the trailing slash is an empty segment)", async () => {
        const tree = path("/a", pathEnd(named("a")));
        expect((await send(tree, "/a")).status).toBe(200);
        expect((await send(tree, "/a/")).status).toBe(404);
        const withSlash = path(
          "/a",
          pathVar(
            "empty",
            Text,
            pathEnd((request) => JSON.stringify(request.vars.empty)),
          ),
        );
        expect((await send(withSlash, "/a/")).body).toBe('""');
      });
      test("path('/api') never matches /apix; path('/a/b') consumes two segments", async () => {
        expect(await matches(path("/api", named("api")), "/apix")).toBe(false);
        expect(await matches(path("/api", named("api")), "/ap")).toBe(false);
        expect(
          (
            await send(
              path("/a/b", (request) => ({ rest: request.rest })),
              "/a/b/c",
            )
          ).body,
        ).toBe('{"rest":["c"]}');
        expect(await matches(path("/a/b", named("ab")), "/a")).toBe(false);
      });
      test("literals compare case-sensitively with the decoded segments", async () => {
        const tree = path("/Hello World", pathEnd(named("hw")));
        expect((await send(tree, "/Hello%20World")).body).toBe("hw");
        expect((await send(tree, "/hello%20world")).status).toBe(404);
        expect((await send(tree, "/Hello+World")).status).toBe(404);
        expect((await send(path("/café", pathEnd(named("c"))), "/caf%C3%A9")).body).toBe("c");
      });
      test("%2F never splits: an encoded slash is part of one segment", async () => {
        const tree = alt(
          path("/a/b", pathEnd(named("two segments"))),
          pathVar(
            "one",
            Text,
            pathEnd((request) => `one segment: ${request.vars.one}`),
          ),
        );
        expect((await send(tree, "/a/b")).body).toBe("two segments");
        expect((await send(tree, "/a%2Fb")).body).toBe("one segment: a/b");
      });
      test("the query is ignored by routing", async () => {
        const tree = path("/a", pathEnd(named("a")));
        expect((await send(tree, "/a?x=1")).body).toBe("a");
        expect((await send(tree, "/a?x=/b/c")).body).toBe("a");
        expect((await send(tree, "/a?")).body).toBe("a");
        expect((await send(tree, "/b?/a")).status).toBe(404);
      });
      test("a failed alternative's consumption is undone", async () => {
        const tree = alt(
          path("/a", path("/b", pathEnd(named("ab")))),
          path(
            "/a",
            pathVar(
              "x",
              Text,
              pathVar("y", Text, () => routeMismatch()),
            ),
          ),
          path(
            "/a",
            pathVar("what", Text, (request) => ({ what: request.vars.what, rest: request.rest })),
          ),
        );
        expect((await send(tree, "/a/c/d")).body).toBe('{"what":"c","rest":["d"]}');
      });
      test("variables captured in a failed alternative are not seen by the next one", async () => {
        const tree = alt(
          pathVar("first", Text, () => routeMismatch()),
          pathVar("second", Text, (request) => ({ keys: Object.keys(request.vars) })),
        );
        expect((await send(tree, "/z")).body).toBe('{"keys":["second"]}');
      });
      test("methods compare exactly: get ≠ GET", async () => {
        expect(await matches(method("GET", named("g")), "/", "get")).toBe(false);
        expect(await matches(method("GET", named("g")), "/", "GET")).toBe(true);
      });
      test("a route without a method accepts every method", async () => {
        const tree = path(
          "/x",
          pathEnd((request) => request.method),
        );
        for (const m of [
          "GET",
          "POST",
          "PUT",
          "DELETE",
          "PATCH",
          "HEAD",
          "OPTIONS",
          "TRACE",
          "CONNECT",
          "PROPFIND",
          "get",
        ]) {
          // a HEAD reply carries no body (node:http drops it; inject agrees)
          expect(await send(tree, "/x", m)).toEqual({ status: 200, body: m === "HEAD" ? "" : m });
        }
      });
      test("HEAD does not fall back to GET, and there is no automatic 405", async () => {
        const tree = method("GET", path("/r", pathEnd(named("get"))));
        expect((await send(tree, "/r", "HEAD")).status).toBe(404);
        expect((await send(tree, "/r", "POST")).status).toBe(404);
      });
      test("one subtree mounted under two prefixes serves both", async () => {
        const shared = pathVar(
          "id",
          Int,
          pathEnd((request) => ({ id: request.vars.id, path: request.path })),
        );
        const tree = alt(path("/v1", shared), path("/v2/api", shared));
        expect(JSON.parse((await send(tree, "/v1/3")).body)).toEqual({ id: 3, path: "/v1/3" });
        expect(JSON.parse((await send(tree, "/v2/api/4")).body)).toEqual({ id: 4, path: "/v2/api/4" });
      });
      test("alt() of none never matches", async () => {
        expect(await matches(alt(), "/")).toBe(false);
        expect(await matches(alt(), "/a", "POST")).toBe(false);
        expect((await send(alt(alt(), named("after")), "/")).body).toBe("after");
      });
      test("alt() of one alternative routes exactly like that alternative", async () => {
        const a = method("GET", path("/a", pathEnd(named("a"))));
        for (const [m, url] of [
          ["GET", "/a"],
          ["POST", "/a"],
          ["GET", "/b"],
          ["GET", "/a/"],
        ] as const) {
          expect(await send(alt(a), url, m)).toEqual(await send(a, url, m));
        }
      });
    });

    describe("guards (spec 1.2: user criteria that signal a mismatch)", () => {
      const cases: ReadonlyArray<readonly [string, () => boolean | Promise<boolean>, string]> = [
        ["sync true", () => true, "guarded"],
        ["sync false", () => false, "fallback"],
        ["async true", async () => true, "guarded"],
        ["async false", async () => false, "fallback"],
        [
          "promise of false, resolved later",
          () => new Promise((resolve) => setImmediate(() => resolve(false))),
          "fallback",
        ],
      ];
      test.each(cases)("a guard that answers %s", async (_name, predicate, expected) => {
        const tree = alt(guard(predicate, named("guarded")), named("fallback"));
        expect((await send(tree, "/")).body).toBe(expected);
      });

      test("a guard sees the request and the variables captured so far", async () => {
        const tree = alt(
          pathVar(
            "id",
            Int,
            guard(
              (request) => request.vars.id % 2 === 0 && request.headers.get("x-role") === "admin",
              named("even admin"),
            ),
          ),
          named("other"),
        );
        expect((await inject(tree, { url: "/4", headers: { "x-role": "admin" } })).body).toBe("even admin");
        expect((await inject(tree, { url: "/3", headers: { "x-role": "admin" } })).body).toBe("other");
        expect((await inject(tree, { url: "/4" })).body).toBe("other");
      });

      test("a guard that throws is a 500, reported to onError", async () => {
        const errors: unknown[] = [];
        const boom = new Error("guard failed");
        const tree = alt(
          guard(() => {
            throw boom;
          }, named("never")),
          named("fallback"),
        );
        const response = await inject(tree, { url: "/" }, { onError: (e) => errors.push(e) });
        expect(response.status).toBe(500);
        expect(errors).toEqual([boom]);
      });
    });

    describe("the request a handler receives (inject)", () => {
      test("method, url, path, segments, rest, query, headers, vars and raw", async () => {
        let seen: Record<string, unknown> = {};
        const tree = path(
          "/api",
          pathVar("id", Int, (request) => {
            seen = {
              method: request.method,
              url: request.url,
              path: request.path,
              segments: request.segments,
              rest: request.rest,
              query: request.query,
              headers: request.headers,
              vars: request.vars,
              raw: request.raw,
            };
            return "ok";
          }),
        );
        const response = await inject(tree, {
          method: "PATCH",
          url: "/api/7/x%20y/?a=1&a=2&b=%2F",
          headers: { "x-test": "yes" },
        });
        expect(response.status).toBe(200);
        expect(seen["method"]).toBe("PATCH");
        expect(seen["url"]).toBe("/api/7/x%20y/?a=1&a=2&b=%2F");
        expect(seen["path"]).toBe("/api/7/x%20y/");
        expect(seen["segments"]).toEqual(["api", "7", "x y", ""]);
        expect(seen["rest"]).toEqual(["x y", ""]);
        const query = seen["query"] as URLSearchParams;
        expect(query).toBeInstanceOf(URLSearchParams);
        expect(query.getAll("a")).toEqual(["1", "2"]);
        expect(query.get("b")).toBe("/");
        const headers = seen["headers"] as RequestHeaders;
        expect(headers.get("x-test")).toBe("yes");
        expect(headers.get("X-Test")).toBe("yes");
        expect(headers.get("x-none")).toBeNull();
        const vars = seen["vars"] as Record<string, unknown>;
        expect(inheritance(vars)).toEqual(INHERITS_NOTHING);
        expect({ ...vars }).toEqual({ id: 7 });
        // under inject, raw is the request object the test sent: no stand-in Node objects
        const raw = seen["raw"] as InjectRequest;
        expect(raw.method).toBe("PATCH");
        expect(raw.url).toBe("/api/7/x%20y/?a=1&a=2&b=%2F");
        expect(raw.headers).toEqual({ "x-test": "yes" });
      });

      test("rest is what the routes above have not consumed, at each handler", async () => {
        const tree = path(
          "/a",
          alt(
            path("/b", () => routeMismatch()),
            (request) => ({ rest: request.rest, segments: request.segments }),
          ),
        );
        expect(JSON.parse((await send(tree, "/a/b/c")).body)).toEqual({ rest: ["b", "c"], segments: ["a", "b", "c"] });
      });

      test("an empty query is an empty URLSearchParams", async () => {
        const tree = alt((request) => ({ size: [...request.query.keys()].length }));
        expect((await send(tree, "/x")).body).toBe('{"size":0}');
      });

      test("text() reads an inject body (string or bytes)", async () => {
        const tree = alt(async (request) => `got:${await request.text()}`);
        expect((await inject(tree, { method: "POST", url: "/", body: "héllo ✓" })).body).toBe("got:héllo ✓");
        expect((await inject(tree, { method: "POST", url: "/", body: new TextEncoder().encode("bytes ✓") })).body).toBe(
          "got:bytes ✓",
        );
        expect((await inject(tree, { method: "POST", url: "/" })).body).toBe("got:");
      });

      test("json() parses an inject body; text() and json() can both be called", async () => {
        const tree = alt(async (request) => ({ parsed: await request.json(), again: await request.text() }));
        const body = JSON.stringify({ a: [1, { b: null }] });
        expect(JSON.parse((await inject(tree, { method: "POST", url: "/", body })).body)).toEqual({
          parsed: { a: [1, { b: null }] },
          again: body,
        });
      });

      test("the body can be read by a handler after an earlier alternative read it and passed", async () => {
        const tree = alt(
          async (request) => ((await request.text()) === "mine" ? "first" : routeMismatch()),
          async (request) => `second:${await request.text()}`,
        );
        expect((await inject(tree, { method: "POST", url: "/", body: "theirs" })).body).toBe("second:theirs");
        expect((await inject(tree, { method: "POST", url: "/", body: "mine" })).body).toBe("first");
      });

      test("json() on a malformed body is a 400 naming the problem, told to onError as an HttpError", async () => {
        const errors: unknown[] = [];
        const tree = alt(async (request) => request.json());
        const response = await inject(
          tree,
          { method: "POST", url: "/", body: "{nope" },
          { onError: (e) => errors.push(e) },
        );
        expect(response.status).toBe(400);
        expect(JSON.parse(response.body).error).toMatch(/^request body is not valid JSON: /);
        expect(errors).toHaveLength(1);
        expect(isHttpError(errors[0])).toBe(true);
      });
    });
  });
}
