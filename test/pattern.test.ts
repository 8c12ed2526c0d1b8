import {
  alt,
  Day,
  HTTP,
  inject,
  Int,
  match,
  method,
  NoParse,
  parsePattern,
  path,
  pathEnd,
  pathVar,
  PatternError,
  registerPathType,
  route,
  routeMismatch,
  Text,
  Word,
  type PatternErrorCode,
  type RoutedRequest,
} from "../src";

const h = (req: RoutedRequest) => ({ vars: req.vars, rest: req.rest });
const get = async (tree: Parameters<typeof inject>[0], url: string, m = "GET") => inject(tree, { method: m, url });

describe("spec 4.1 rules 4–5: route and match are the four functions", () => {
  test("rule 4: route(M /a/b/v:T, h) equals method M $ path /a/b $ pathVar v T $ pathEnd h", () => {
    expect(route("GET /a/b/v:Int", h)).toEqual(method("GET", path("/a/b", pathVar("v", Int, pathEnd(h)))));
  });

  test("rule 5: match(M /a/b/v:T, next) is the same chain without pathEnd", () => {
    const next = route("/c", h);
    expect(match("GET /a/b/v:Int", next)).toEqual(method("GET", path("/a/b", pathVar("v", Int, next))));
  });

  test("literals between variables group into one path node each", () => {
    expect(route("/a/b/x:Int/c/d/y:Day/e", h)).toEqual(
      path("/a/b", pathVar("x", Int, path("/c/d", pathVar("y", Day, path("/e", pathEnd(h)))))),
    );
  });

  test("rule 1: without a method there is no method node", () => {
    expect(route("/a", h)).toEqual(path("/a", pathEnd(h)));
    expect(match("/a", h)).toEqual(path("/a", h));
  });

  test("a qualified method is the same method: HTTP.GET /a ≡ GET /a", () => {
    expect(route("HTTP.GET /a", h)).toEqual(route("GET /a", h));
    expect(route(`${HTTP.DELETE} /a`, h)).toEqual(method("DELETE", path("/a", pathEnd(h))));
  });

  test("the leading / is optional and empty pieces are dropped", () => {
    expect(route("a//b/", h)).toEqual(route("/a/b", h));
    expect(route("  GET   a/id:Int  ", h)).toEqual(route("GET /a/id:Int", h));
  });

  test('route("/") is the root for any method, route("GET /") the GET root, match("GET /") only the method', () => {
    expect(route("/", h)).toEqual(pathEnd(h));
    expect(route("GET /", h)).toEqual(method("GET", pathEnd(h)));
    expect(match("GET /", h)).toEqual(method("GET", h));
    expect(match("/", route("/x", h))).toEqual(route("/x", h));
  });

  test("any upper-case token is a method", () => {
    expect(route("PROPFIND /dav", h)).toEqual(method("PROPFIND", path("/dav", pathEnd(h))));
  });
});

describe("behaviour of patterns", () => {
  test("route matches the whole path; extra segments are a mismatch", async () => {
    const tree = route("GET /user/id:Int", h);
    expect((await get(tree, "/user/7")).status).toBe(200);
    expect(JSON.parse((await get(tree, "/user/7")).body)).toEqual({ vars: { id: 7 }, rest: [] });
    expect((await get(tree, "/user/7/x")).status).toBe(404);
    expect((await get(tree, "/user/7/")).status).toBe(404);
    expect((await get(tree, "/user/x")).status).toBe(404);
    expect((await get(tree, "/user/7", "POST")).status).toBe(404);
  });

  test('route("/") answers the root for every method; route("GET /") only GET', async () => {
    const any = route("/", () => "root");
    const onlyGet = route("GET /", () => "root");
    for (const m of ["GET", "POST", "DELETE"]) expect((await get(any, "/", m)).body).toBe("root");
    expect((await get(onlyGet, "/", "POST")).status).toBe(404);
    expect((await get(onlyGet, "")).body).toBe("root");
    expect((await get(onlyGet, "/x")).status).toBe(404);
  });

  test("match passes the rest of the path to a handler", async () => {
    const tree = match("/static", (req) => req.rest.join("/"));
    expect((await get(tree, "/static/css/site.css")).body).toBe("css/site.css");
    expect(await get(tree, "/static")).toMatchObject({ status: 200, body: "" });
  });

  test("spec 4.1 rule 6: prefixes concatenate through nested match", async () => {
    const tree = match("/api", alt(route("/user/userId:Int", h), match("/v2/org:Text", route("GET /team/t:Word", h))));
    expect(JSON.parse((await get(tree, "/api/user/5")).body).vars).toEqual({ userId: 5 });
    expect(JSON.parse((await get(tree, "/api/v2/acme/team/3")).body).vars).toEqual({ org: "acme", t: 3 });
    expect((await get(tree, "/user/5")).status).toBe(404);
    expect((await get(tree, "/api/api/user/5")).status).toBe(404);
  });

  test("spec 4.1 rule 6: a match with a method applies it to every inner route", async () => {
    const tree = match(
      "POST /api",
      alt(
        route("/a", () => "a"),
        route("/b", () => "b"),
      ),
    );
    expect((await get(tree, "/api/a", "POST")).body).toBe("a");
    expect((await get(tree, "/api/b", "POST")).body).toBe("b");
    expect((await get(tree, "/api/a", "GET")).status).toBe(404);
    expect((await get(tree, "/api/b", "PUT")).status).toBe(404);
  });

  test("spec 4.3.5: a match whose inner routes all miss falls through to a later alternative", async () => {
    const tree = alt(
      match(
        "/api",
        alt(
          route("GET /a", () => "inner a"),
          route("/n/id:Int", () => "inner n"),
        ),
      ),
      match("/api", (req) => `fallback ${req.rest.join("/")}`),
    );
    expect((await get(tree, "/api/a")).body).toBe("inner a");
    expect((await get(tree, "/api/a", "POST")).body).toBe("fallback a");
    expect((await get(tree, "/api/n/x")).body).toBe("fallback n/x");
    expect((await get(tree, "/api/zzz")).body).toBe("fallback zzz");
  });

  test("a handler's routeMismatch() inside a match falls through to the next alternative", async () => {
    const tree = alt(
      match(
        "/api",
        route("/x", () => routeMismatch()),
      ),
      route("/api/x", () => "second"),
    );
    expect((await get(tree, "/api/x")).body).toBe("second");
  });

  test("literals compare case-sensitively with decoded segments", async () => {
    const tree = route("/caf\u00e9/a+b", () => "ok");
    expect((await get(tree, "/caf%C3%A9/a+b")).body).toBe("ok");
    expect((await get(tree, "/caf%C3%A9/a%2Bb")).body).toBe("ok");
    expect((await get(tree, "/CAF%C3%A9/a+b")).status).toBe(404);
    expect((await get(tree, "/caf%C3%A9/a%20b")).status).toBe(404);
  });
});

describe("build-time errors: one PatternError code per kind", () => {
  const cases: [PatternErrorCode, string, RegExp[]][] = [
    ["EMPTY_PATTERN", "   ", [/empty/]],
    ["TOO_MANY_TOKENS", "GET /a /b", [/unexpected "\/b"/, /at most a method and a path/]],
    ["LONE_METHOD", "GET", [/did you mean `GET \/`\?/]],
    ["LONE_METHOD", "HTTP.POST", [/did you mean `POST \/`\?/]],
    ["METHOD_CASE", "get /a", [/"get" is not upper-case/, /did you mean `GET`\?/]],
    ["METHOD_CASE", "Post /a", [/did you mean `POST`\?/]],
    ["INVALID_METHOD", "G(T /a", [/is not a method/, /upper-case method token/]],
    ["TOO_MANY_COLONS", "/u/a:b:c", [/more than one ":"/]],
    ["EMPTY_LABEL", "/u/:Int", [/has no label/, /a label before ":"/]],
    ["EMPTY_TYPE", "/u/id:", [/"id" has no type/, /Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day/]],
    [
      "UNKNOWN_TYPE",
      "/u/id:Intt",
      [/unknown path type "Intt"/, /Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day/],
    ],
    ["DUPLICATE_LABEL", "/u/id:Int/x/id:Text", [/"id" is used twice/]],
  ];

  test.each(cases)("%s: %j", (code, pattern, messages) => {
    for (const build of [() => route(pattern, h), () => match(pattern, h), () => parsePattern(pattern)]) {
      let error: unknown;
      try {
        build();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(PatternError);
      const e = error as PatternError;
      expect(e.code).toBe(code);
      expect(e.pattern).toBe(pattern);
      expect(e.message).toContain(JSON.stringify(pattern));
      expect(e.message).toMatch(/expected /);
      for (const m of messages) expect(e.message).toMatch(m);
    }
  });

  test("the caret line points at the offending part", () => {
    const pattern: string = "GET /users/id:Intt";
    const e = (() => {
      try {
        route(pattern, h);
      } catch (err) {
        return err as PatternError;
      }
      throw new Error("no error");
    })();
    expect(e.position).toBe(pattern.indexOf("Intt"));
    expect(e.length).toBe(4);
    const lines = e.message.split("\n");
    const patternLine = lines.find((l) => l.trim() === pattern)!;
    const caretLine = lines[lines.indexOf(patternLine) + 1]!;
    expect(patternLine.indexOf("Intt")).toBe(caretLine.indexOf("^"));
    expect(caretLine.trim()).toBe("^^^^");
  });

  test("DUPLICATE_LABEL across nested match prefixes, pointing at the outer label", () => {
    const inner = route("GET /members/id:Int", h);
    expect(() => match("/orgs/id:Text", inner)).toThrow(PatternError);
    // the inner route reached through an alt: found there too (nothing thrown fails the test)
    const throughAlt = (): unknown => match("/orgs/id:Text", alt(route("/a", h), inner));
    expect(throughAlt).toThrow(PatternError);
    expect(throughAlt).toThrow(
      expect.objectContaining({
        code: "DUPLICATE_LABEL",
        position: "/orgs/".length,
        message: expect.stringMatching(/captured again/),
      }),
    );
    // (a literal inner pattern is a type error already: test/types/pattern-errors)
    expect(() => match("/x/id:Int", match("/y", route("/z/id:Int" as string, h)))).toThrow(/captured again/);
    expect(() => match("/x/id:Int", pathVar("id", Text, h))).toThrow(PatternError);
    // the same label in sibling routes is fine: each route captures it once
    expect(() => alt(route("/a/id:Int", h), route("/b/id:Int", h))).not.toThrow();
  });

  test("a non-string pattern is a TypeError", () => {
    expect(() => route(42 as unknown as string, h)).toThrow(TypeError);
  });
});

describe("path-type registry", () => {
  class Slug {
    constructor(readonly value: string) {}
    static parseUrlPiece(piece: string): Slug | typeof NoParse {
      return /^[a-z0-9-]+$/.test(piece) ? new Slug(piece) : NoParse;
    }
    static toUrlPiece(slug: Slug): string {
      return slug.value;
    }
  }

  test("a registered parser is usable by name, and a mismatch falls through", async () => {
    registerPathType(Slug);
    const tree = alt(
      route("/post/s:Slug" as string, (req) => ({ slug: (req.vars["s"] as Slug).value })),
      route("/post/other:Text", () => "not a slug"),
    );
    expect(JSON.parse((await get(tree, "/post/hello-world")).body)).toEqual({ slug: "hello-world" });
    expect((await get(tree, "/post/Hello")).body).toBe("not a slug");
  });

  test("a parser can be registered under another name; a taken name cannot be reused", () => {
    registerPathType(Slug, "PostSlug");
    expect(parsePattern("/p/s:PostSlug").parts[1]).toMatchObject({
      kind: "variable",
      parser: Slug,
      typeName: "PostSlug",
    });
    expect(() => registerPathType(Slug)).not.toThrow();
    expect(() => registerPathType(Word, "Int")).toThrow(/already registered/);
    expect(() => registerPathType(Slug, "not a name")).toThrow(/not a type name/);
  });

  test("unknown names list the registered ones, user types included", () => {
    registerPathType(Slug);
    expect(() => route("/x:Nope" as string, h)).toThrow(/Slug/);
  });
});
