import {
  alt,
  CONNECT,
  DELETE,
  GET,
  guard,
  HEAD,
  HTTP,
  inject,
  Int,
  match,
  method,
  OPTIONS,
  PATCH,
  path,
  pathEnd,
  pathVar,
  POST,
  PUT,
  route,
  Text,
  TRACE,
  type RouteNode,
} from "../src";

/*
 * Building the route tree (DESIGN.md "The tree"): node shapes, build-time errors, and the method values
 * of spec section 2 ("Request method").
 */

const ok = (): string => "ok";

describe("method values (spec 2: an HTTP method value, qualified or not)", () => {
  const standard: ReadonlyArray<readonly [string, string]> = [
    ["GET", GET],
    ["POST", POST],
    ["PUT", PUT],
    ["DELETE", DELETE],
    ["PATCH", PATCH],
    ["HEAD", HEAD],
    ["OPTIONS", OPTIONS],
    ["TRACE", TRACE],
    ["CONNECT", CONNECT],
  ];

  test.each(standard)("the value %s is the string of its name and HTTP.%s is the same value", (name, value) => {
    expect(value).toBe(name);
    expect(HTTP[name as keyof typeof HTTP]).toBe(value);
  });

  test.each(standard)("method(%s, …) routes requests with exactly that method", async (name, value) => {
    const tree = method(value, ok);
    expect(tree).toMatchObject({ kind: "method", method: name });
    expect((await inject(tree, { method: name, url: "/" })).status).toBe(200);
    const other = name === "GET" ? "POST" : "GET";
    expect((await inject(tree, { method: other, url: "/" })).status).toBe(404);
  });

  test("HTTP.GET (qualified) and GET (unqualified) build the same node", () => {
    expect(method(HTTP.GET, ok)).toEqual(method(GET, ok));
    expect(method(HTTP.GET, ok)).toEqual(method("GET", ok));
  });

  test("any upper-case token is a method: method('PROPFIND', …)", async () => {
    const tree = alt(
      method("PROPFIND", () => "propfind"),
      method("M-SEARCH", () => "msearch"),
    );
    expect((await inject(tree, { method: "PROPFIND", url: "/x" })).body).toBe("propfind");
    expect((await inject(tree, { method: "M-SEARCH", url: "/x" })).body).toBe("msearch");
    expect((await inject(tree, { method: "propfind", url: "/x" })).status).toBe(404);
  });

  test.each(["get", "Get", "gET", "", "G ET", "GET\n", "GÉT", "GET/"])(
    "method(%j, …) is a TypeError at build time",
    (bad) => {
      expect(() => method(bad, ok)).toThrow(TypeError);
    },
  );

  test("a non-string method is a TypeError", () => {
    expect(() => method(undefined as unknown as string, ok)).toThrow(TypeError);
    expect(() => method(7 as unknown as string, ok)).toThrow(TypeError);
  });
});

describe("node shapes", () => {
  test("the functions build plain data: method/path/pathVar/pathEnd/handler", () => {
    const h = (): string => "h";
    const tree = method("GET", path("/a/b", pathVar("v", Int, pathEnd(h))));
    expect(tree).toEqual({
      kind: "method",
      method: "GET",
      next: {
        kind: "path",
        literal: "/a/b",
        segments: ["a", "b"],
        next: {
          kind: "pathVar",
          label: "v",
          parser: Int,
          next: { kind: "pathEnd", next: { kind: "handler", handler: h } },
        },
      },
    });
  });

  test("path literals drop empty pieces: path('/') has no segments, '//a//b/' has two", () => {
    expect(path("/", ok)).toMatchObject({ literal: "/", segments: [] });
    expect(path("", ok)).toMatchObject({ literal: "/", segments: [] });
    expect(path("//a//b/", ok)).toMatchObject({ literal: "/a/b", segments: ["a", "b"] });
    expect(path("a/b", ok)).toMatchObject({ literal: "/a/b", segments: ["a", "b"] });
  });

  test("alt() of one alternative is that alternative", () => {
    const a = method("GET", ok);
    expect(alt(a)).toBe(a);
    const h = (): string => "h";
    expect(alt(h)).toEqual({ kind: "handler", handler: h });
  });

  test("alt() of none is an alternative node with nothing in it", () => {
    expect(alt()).toEqual({ kind: "alt", alternatives: [] });
  });

  test("alt keeps its alternatives in the order written", () => {
    const a = path("/a", ok);
    const b = path("/b", ok);
    const c = path("/c", ok);
    expect(alt(a, b, c)).toEqual({ kind: "alt", alternatives: [a, b, c] });
  });

  test("a guard node holds its predicate", () => {
    const p = (): boolean => true;
    expect(guard(p, ok)).toMatchObject({ kind: "guard", predicate: p, next: { kind: "handler" } });
  });

  test("building does not change the subtrees it is given (trees are reusable)", () => {
    const inner = pathVar("id", Int, pathEnd(ok));
    const snapshot = JSON.stringify(inner, (_k, v: unknown) => (typeof v === "function" ? String(v) : v));
    const a = path("/a", inner);
    const b = path("/b", inner);
    expect(a.kind === "path" && a.next).toBe(inner);
    expect(b.kind === "path" && b.next).toBe(inner);
    expect(JSON.stringify(inner, (_k, v: unknown) => (typeof v === "function" ? String(v) : v))).toBe(snapshot);
  });
});

describe("build-time errors", () => {
  test("pathVar with a duplicate label on one chain throws at build time", () => {
    expect(() => pathVar("id", Int, pathVar("id", Int, pathEnd(ok)))).toThrow(TypeError);
    expect(() => pathVar("id", Int, path("/x", pathVar("id", Text, ok)))).toThrow(/id/);
    // through an alt further in: still one chain for the inner route
    expect(() => pathVar("id", Int, alt(path("/a", ok), pathVar("id", Int, ok)))).toThrow(TypeError);
    // through a guard and a method node
    expect(() =>
      pathVar(
        "id",
        Int,
        guard(() => true, method("GET", pathVar("id", Int, ok))),
      ),
    ).toThrow(TypeError);
  });

  test("the same label on different alternatives is fine", () => {
    expect(() => alt(pathVar("id", Int, ok), pathVar("id", Text, ok))).not.toThrow();
    expect(() => path("/a", alt(pathVar("id", Int, pathEnd(ok)), path("/b", pathVar("id", Text, ok))))).not.toThrow();
  });

  test("distinct labels on one chain are fine", () => {
    expect(() => pathVar("a", Int, pathVar("b", Int, pathEnd(ok)))).not.toThrow();
  });

  test("pathVar: an empty or non-string label, or something that is not a parser, is a TypeError", () => {
    expect(() => pathVar("", Int, ok)).toThrow(TypeError);
    expect(() => pathVar(1 as unknown as string, Int, ok)).toThrow(TypeError);
    expect(() => pathVar("x", {} as typeof Int, ok)).toThrow(TypeError);
    expect(() => pathVar("x", null as unknown as typeof Int, ok)).toThrow(TypeError);
  });

  test("a next that is neither a route nor a function is a TypeError", () => {
    const bad: unknown[] = [undefined, null, 1, "GET", [], {}, { kind: "nope" }];
    for (const next of bad) {
      expect(() => method("GET", next as RouteNode)).toThrow(TypeError);
      expect(() => path("/a", next as RouteNode)).toThrow(TypeError);
      expect(() => pathEnd(next as RouteNode)).toThrow(TypeError);
      expect(() => alt(next as RouteNode)).toThrow(TypeError);
      expect(() => guard(() => true, next as RouteNode)).toThrow(TypeError);
      expect(() => pathVar("v", Int, next as RouteNode)).toThrow(TypeError);
    }
  });

  test("that error names the call (with its label, alternative or pattern) and what it got", () => {
    expect(() => pathVar("userId", Int, null as unknown as RouteNode)).toThrow(
      'pathVar("userId"): expected a route or a handler function, got null',
    );
    expect(() => alt(ok, [] as unknown as RouteNode)).toThrow(
      "alt (alternative 2): expected a route or a handler function, got an array",
    );
    expect(() => method("GET", 1 as unknown as RouteNode)).toThrow(
      "method: expected a route or a handler function, got number",
    );
    expect(() => route("GET /a/id:Int", {} as never)).toThrow(
      'route("GET /a/id:Int"): expected a route or a handler function, got object',
    );
    expect(() => match("/api", "x" as never)).toThrow(
      'match("/api"): expected a route or a handler function, got string',
    );
  });

  test("path with a non-string literal and guard with a non-function are TypeErrors", () => {
    expect(() => path(5 as unknown as string, ok)).toThrow(TypeError);
    expect(() => guard(true as unknown as () => boolean, ok)).toThrow(TypeError);
  });
});

describe("trees are immutable data", () => {
  test("every node built by the functions and patterns is frozen, arrays included", () => {
    const h = () => "x";
    const nodes = [
      method("GET", h),
      path("/a/b", h),
      pathVar("id", Int, h),
      pathEnd(h),
      alt(h, h),
      guard(() => true, h),
      route("GET /a/id:Int", h),
      match("/m", h),
    ];
    const walk = (node: object): void => {
      expect(Object.isFrozen(node)).toBe(true);
      for (const value of Object.values(node)) {
        if (Array.isArray(value)) {
          expect(Object.isFrozen(value)).toBe(true);
          for (const item of value) if (typeof item === "object") walk(item as object);
        } else if (typeof value === "object" && value !== null && "kind" in value) walk(value);
      }
    };
    for (const node of nodes) walk(node);
    const tree = path("/a/b", h) as unknown as { segments: string[] };
    expect(() => tree.segments.push("c")).toThrow(TypeError);
  });
});
