import {
  alt,
  Day,
  inject,
  Int,
  json,
  match,
  method,
  NoParse,
  path,
  pathEnd,
  pathVar,
  PatternError,
  registerPathType,
  route,
  routeMismatch,
  Text,
  type RoutedRequest,
  type RouteNode,
} from "../src";
import { controllers, ControllerError, Match, PathVar, Req, Route } from "../decorators";
import { errorOf, expectControllerError, shape } from "./helpers/decorators";

const noop = () => null;

describe("the decorator test style: controllers([...]) → inject → status and body", () => {
  @Match("/users")
  class Users {
    private readonly names = new Map([
      [1, "ada"],
      [2, "alan"],
    ]);

    @Route("GET /")
    list() {
      return [...this.names.values()];
    }

    @Route("GET /id:Int")
    get(@PathVar("id") id: number) {
      const name = this.names.get(id);
      return name === undefined ? json({ error: "no such user" }, { status: 404 }) : { id, name };
    }

    @Route("POST /")
    async create(@Req() req: RoutedRequest) {
      const body = await req.json<{ name: string }>();
      return json({ created: body.name }, { status: 201 });
    }
  }

  const app = controllers([Users]);

  test("a route with a path variable", async () => {
    const res = await inject(app, { url: "/users/2" });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ id: 2, name: "alan" });
  });

  test("the prefix route, a reply with a status, a body read through @Req", async () => {
    expect(JSON.parse((await inject(app, { url: "/users" })).body)).toEqual(["ada", "alan"]);
    expect((await inject(app, { url: "/users/9" })).status).toBe(404);
    const created = await inject(app, { method: "POST", url: "/users", body: '{"name":"grace"}' });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toEqual({ created: "grace" });
  });

  test("what matches no route is a 404 with an empty body", async () => {
    for (const [m, url] of [
      ["GET", "/users/x"],
      ["DELETE", "/users/1"],
      ["GET", "/user"],
      ["GET", "/users/1/"],
    ] as const) {
      const res = await inject(app, { method: m, url });
      expect([m, url, res.status, res.body]).toEqual([m, url, 404, ""]);
    }
  });
});

describe("the tree is the functional one", () => {
  test("a @Match class is match(prefix, alt(route(…), …)), node for node", () => {
    @Match("/api/org:Text")
    class Orgs {
      @Route("GET /members/id:Int")
      member(@PathVar("id") _id: number) {}
      @Route("POST /teams")
      team() {}
      @Route("/")
      root() {}
    }
    const functional = match(
      "/api/org:Text",
      alt(route("GET /members/id:Int", noop), route("POST /teams", noop), route("/", noop)),
    );
    expect(shape(controllers([Orgs]))).toEqual(shape(functional));
    expect(shape(controllers([Orgs]))).toEqual(
      shape(
        path(
          "/api",
          pathVar(
            "org",
            Text,
            alt(
              method("GET", path("/members", pathVar("id", Int, pathEnd(noop)))),
              method("POST", path("/teams", pathEnd(noop))),
              pathEnd(noop),
            ),
          ),
        ),
      ),
    );
  });

  test("a class without @Match is its routes at the root; one route is just that route", () => {
    class Health {
      @Route("GET /health")
      health() {}
    }
    class Two {
      @Route("GET /a")
      a() {}
      @Route("GET /b/on:Day")
      b(@PathVar("on") _on: Day) {}
    }
    expect(shape(controllers([Health]))).toEqual(shape(route("GET /health", noop)));
    expect(shape(controllers([Two]))).toEqual(shape(alt(route("GET /a", noop), route("GET /b/on:Day", noop))));
    expect(shape(controllers([Health, Two]))).toEqual(
      shape(alt(route("GET /health", noop), alt(route("GET /a", noop), route("GET /b/on:Day", noop)))),
    );
  });

  test("handler leaves are named Class.method", () => {
    @Match("/x")
    class Named {
      @Route("GET /")
      index() {}
    }
    const tree = controllers([Named]);
    let node: RouteNode = tree;
    while (node.kind !== "handler") node = node.kind === "alt" ? node.alternatives[0]! : node.next;
    expect(node.handler.name).toBe("Named.index");
  });
});

describe("order: classes as given, methods as declared, first match wins", () => {
  class First {
    @Route("GET /a/x:Int")
    int(@PathVar("x") x: number) {
      return `First.int ${x}`;
    }
    @Route("GET /a/x:Text")
    text(@PathVar("x") x: string) {
      return `First.text ${x}`;
    }
  }
  class Second {
    @Route("GET /a/7")
    seven() {
      return "Second.seven";
    }
    @Route("GET /b")
    b() {
      return "Second.b";
    }
  }
  class Third {
    @Route("GET /b")
    b() {
      return "Third.b";
    }
  }

  test("an earlier method shadows a later one, an earlier class a later class", async () => {
    const app = controllers([First, Second, Third]);
    expect((await inject(app, { url: "/a/7" })).body).toBe("First.int 7");
    expect((await inject(app, { url: "/a/seven" })).body).toBe("First.text seven");
    expect((await inject(app, { url: "/b" })).body).toBe("Second.b");
  });

  test("the order given to controllers() is the order tried", async () => {
    expect((await inject(controllers([Second, First]), { url: "/a/7" })).body).toBe("Second.seven");
    expect((await inject(controllers([Third, Second]), { url: "/b" })).body).toBe("Third.b");
  });

  test("routeMismatch() passes to the next method, then to the next class", async () => {
    class Picky {
      @Route("GET /p/n:Int")
      even(@PathVar("n") n: number) {
        return n % 2 === 0 ? `even ${n}` : routeMismatch();
      }
      @Route("GET /p/n:Int")
      small(@PathVar("n") n: number) {
        return n < 10 ? `small ${n}` : routeMismatch();
      }
    }
    class Fallback {
      @Route("GET /p/n:Text")
      any(@PathVar("n") n: string) {
        return Promise.resolve(`fallback ${n}`);
      }
    }
    const app = controllers([Picky, Fallback]);
    expect((await inject(app, { url: "/p/4" })).body).toBe("even 4");
    expect((await inject(app, { url: "/p/3" })).body).toBe("small 3");
    expect((await inject(app, { url: "/p/13" })).body).toBe("fallback 13");
  });
});

describe("@Match", () => {
  test("a @Match with a method restricts every route of the class", async () => {
    @Match("GET /r")
    class ReadOnly {
      @Route("/a")
      a() {
        return "a";
      }
      @Route("/b/n:Int")
      b(@PathVar("n") n: number) {
        return n + 1;
      }
    }
    const app = controllers([ReadOnly]);
    expect(shape(app)).toEqual(shape(match("GET /r", alt(route("/a", noop), route("/b/n:Int", noop)))));
    expect((await inject(app, { url: "/r/a" })).body).toBe("a");
    expect((await inject(app, { url: "/r/b/1" })).body).toBe("2");
    expect((await inject(app, { method: "POST", url: "/r/a" })).status).toBe(404);
    expect((await inject(app, { method: "HEAD", url: "/r/b/1" })).status).toBe(404);
  });

  test("the prefix's variables can be taken with @PathVar, and need not be", async () => {
    @Match("/orgs/org:Text")
    class Members {
      @Route("GET /members/id:Int")
      member(@PathVar("id") id: number, @PathVar("org") org: string) {
        return { org, id };
      }
      @Route("GET /about")
      about() {
        return "about";
      }
    }
    const app = controllers([Members]);
    expect(JSON.parse((await inject(app, { url: "/orgs/acme/members/5" })).body)).toEqual({ org: "acme", id: 5 });
    expect((await inject(app, { url: "/orgs/acme/about" })).body).toBe("about");
  });
});

describe("mounting", () => {
  @Match("/users")
  class Users {
    // a label captured outside the controllers() tree is not the pattern's: it comes through @Req
    @Route("GET /id:Int")
    get(@PathVar("id") id: number, @Req() req: RoutedRequest) {
      return `user ${id} (${String(req.vars["version"])})`;
    }
  }
  class Status {
    @Route("GET /status")
    status() {
      return "ok";
    }
  }

  test('controllers(...) under match("/v1", …) and under a prefix with a variable', async () => {
    class Plain {
      @Route("GET /users/id:Int")
      get(@PathVar("id") id: number) {
        return `v1 user ${id}`;
      }
    }
    const v1 = match("/v1", controllers([Plain, Status]));
    expect((await inject(v1, { url: "/v1/users/3" })).body).toBe("v1 user 3");
    expect((await inject(v1, { url: "/v1/status" })).body).toBe("ok");
    expect((await inject(v1, { url: "/status" })).status).toBe(404);

    const versioned = match("/version:Text", controllers([Users]));
    expect((await inject(versioned, { url: "/v2/users/8" })).body).toBe("user 8 (v2)");
  });

  test("decorator and functional routes mix in one alt, in the order written", async () => {
    const app = alt(
      route("GET /users/0", () => "functional zero"),
      controllers([Status]),
      match("/version:Text", controllers([Users])),
      route("GET /status", () => "functional status (shadowed)"),
      route("GET /fn/n:Int", (req) => `functional ${req.vars.n}`),
    );
    expect((await inject(app, { url: "/users/0" })).body).toBe("functional zero");
    expect((await inject(app, { url: "/status" })).body).toBe("ok");
    expect((await inject(app, { url: "/v3/users/1" })).body).toBe("user 1 (v3)");
    expect((await inject(app, { url: "/fn/5" })).body).toBe("functional 5");
  });

  test("a @PathVar for a label captured outside controllers() is an error: the mount point is unknown there", () => {
    class Outer {
      @Route("GET /id:Int")
      get(@PathVar("id") _id: number, @PathVar("version") _version: string) {}
    }
    expectControllerError(() => match("/version:Text", controllers([Outer])), "UNKNOWN_LABEL", "Outer", "get");
  });

  test("the same controllers tree mounts under two prefixes", async () => {
    const tree = controllers([Status]);
    const app = alt(match("/a", tree), match("/b", tree));
    expect((await inject(app, { url: "/a/status" })).body).toBe("ok");
    expect((await inject(app, { url: "/b/status" })).body).toBe("ok");
  });
});

describe("parameters and results", () => {
  test("@PathVar gets the parser's value, @Req the routed request, others stay undefined", async () => {
    const seen: unknown[][] = [];
    class Probe {
      @Route("GET /p/a:Int/b:Day/c:Text")
      probe(
        @PathVar("c") c: string,
        _undecorated: unknown,
        @Req() req: RoutedRequest,
        @PathVar("a") a: number,
        @PathVar("b") b: Day,
        _trailing?: unknown,
      ) {
        seen.push([c, _undecorated, req.path, req.vars, a, b, _trailing]);
        return null;
      }
    }
    await inject(controllers([Probe]), { url: "/p/007/2024-02-29/x%20y?q=1" });
    expect(seen).toHaveLength(1);
    const [c, undecorated, reqPath, vars, a, b, trailing] = seen[0]!;
    expect(c).toBe("x y");
    expect(undecorated).toBeUndefined();
    expect(reqPath).toBe("/p/007/2024-02-29/x%20y");
    expect({ ...(vars as object) }).toEqual({ a: 7, b: Day.of(2024, 2, 29), c: "x y" });
    expect(a).toBe(7);
    expect(b).toBeInstanceOf(Day);
    expect(String(b)).toBe("2024-02-29");
    expect(trailing).toBeUndefined();
  });

  test("two parameters may take the same label", async () => {
    class Twice {
      @Route("GET /t/n:Int")
      twice(@PathVar("n") a: number, @PathVar("n") b: number) {
        return a + b;
      }
    }
    expect((await inject(controllers([Twice]), { url: "/t/21" })).body).toBe("42");
  });

  test("methods keep their this; results are handled as for functional handlers", async () => {
    class Results {
      private readonly greeting = "hello";
      @Route("GET /this")
      self() {
        return this.greeting;
      }
      @Route("GET /json")
      plain() {
        return { n: 1n << 62n };
      }
      @Route("GET /reply")
      replied() {
        return json([1], { status: 202, headers: { "X-Test": "yes" } });
      }
      @Route("GET /async")
      async later() {
        await Promise.resolve();
        return this.greeting.toUpperCase();
      }
      @Route("GET /none")
      none() {}
      @Route("GET /boom")
      boom(): string {
        throw new Error("boom");
      }
    }
    const app = controllers([Results]);
    expect((await inject(app, { url: "/this" })).body).toBe("hello");
    expect((await inject(app, { url: "/json" })).body).toBe('{"n":4611686018427387904}');
    const replied = await inject(app, { url: "/reply" });
    expect([replied.status, replied.headers["x-test"], replied.body]).toEqual([202, "yes", "[1]"]);
    expect((await inject(app, { url: "/async" })).body).toBe("HELLO");
    expect((await inject(app, { url: "/none" })).status).toBe(204);
    const errors: unknown[] = [];
    const boom = await inject(app, { url: "/boom" }, { onError: (e) => errors.push(e) });
    expect(boom.status).toBe(500);
    expect((errors[0] as Error).message).toBe("boom");
  });

  test("the method is looked up on each call, so a spy on the instance sees the calls", async () => {
    class Spied {
      @Route("GET /s")
      s() {
        return "real";
      }
    }
    const instance = new Spied();
    const app = controllers([Spied], { resolve: () => instance });
    const spy = jest.spyOn(instance, "s").mockReturnValue("spied");
    expect((await inject(app, { url: "/s" })).body).toBe("spied");
    expect(spy).toHaveBeenCalledTimes(1);
  });

  test("routes can be symbol-keyed methods", async () => {
    const key = Symbol("hidden");
    class Sym {
      @Route("GET /sym")
      [key]() {
        return "symbol";
      }
    }
    expect((await inject(controllers([Sym]), { url: "/sym" })).body).toBe("symbol");
  });
});

describe("instances", () => {
  test("without a resolver each class is constructed once, with new, when controllers() runs", async () => {
    let constructed = 0;
    class Counted {
      readonly n: number;
      constructor() {
        this.n = ++constructed;
      }
      @Route("GET /a")
      a() {
        return this.n;
      }
      @Route("GET /b")
      b() {
        return this.n;
      }
    }
    const app = controllers([Counted]);
    expect(constructed).toBe(1);
    for (const url of ["/a", "/b", "/a"]) expect((await inject(app, { url })).body).toBe("1");
    expect(constructed).toBe(1);
  });

  test("a resolver is called once per class, with the class", async () => {
    class A {
      @Route("GET /a")
      a() {
        return "a";
      }
    }
    class B {
      @Route("GET /b")
      b() {
        return "b";
      }
    }
    const calls: unknown[] = [];
    const app = controllers([A, B], { resolve: (C) => (calls.push(C), new C()) });
    expect(calls).toEqual([A, B]);
    await inject(app, { url: "/a" });
    await inject(app, { url: "/b" });
    expect(calls).toEqual([A, B]);
  });

  test("an abstract class can be a controller when the resolver supplies a concrete instance", async () => {
    abstract class Greeter {
      protected abstract readonly word: string;
      @Route("GET /greet/name:Text")
      greet(@PathVar("name") name: string) {
        return `${this.word}, ${name}`;
      }
    }
    class English extends Greeter {
      protected readonly word = "Hello";
    }
    const app = controllers([Greeter], { resolve: () => new English() });
    expect((await inject(app, { url: "/greet/ada" })).body).toBe("Hello, ada");
  });
});

describe("startup errors name the class and the method", () => {
  test("a @PathVar label the pattern lacks", () => {
    @Match("/o/org:Text")
    class Typo {
      @Route("GET /u/id:Int")
      get(@PathVar("id") _id: number, @PathVar("idd") _idd: number) {}
    }
    const e = expectControllerError(() => controllers([Typo]), "UNKNOWN_LABEL", "Typo", "get");
    expect(e.message).toContain('@PathVar("idd")');
    expect(e.message).toContain('"GET /u/id:Int"');
    expect(e.message).toContain("its labels: org, id");
  });

  test("a pattern label with no @PathVar parameter", () => {
    class Forgot {
      @Route("GET /ok")
      ok() {}
      @Route("GET /u/id:Int/on:Day")
      get(@PathVar("id") _id: number) {}
    }
    const e = expectControllerError(() => controllers([Forgot]), "MISSING_PATH_VAR", "Forgot", "get");
    expect(e.message).toContain('"on"');
  });

  test("two @Routes on one method", () => {
    class Doubled {
      @Route("GET /a")
      @Route("GET /b")
      both() {}
    }
    const e = expectControllerError(() => controllers([Doubled]), "DUPLICATE_ROUTE", "Doubled", "both");
    expect(e.message).toContain('"GET /a"');
    expect(e.message).toContain('"GET /b"');
  });

  test("a @PathVar whose declared type contradicts the pattern's type", () => {
    class StringForInt {
      @Route("GET /u/id:Int")
      get(@PathVar("id") _id: string) {}
    }
    const e = expectControllerError(() => controllers([StringForInt]), "PARAM_TYPE_MISMATCH", "StringForInt", "get");
    expect(e.message).toBe(
      'StringForInt.get: parameter 0 (@PathVar("id")) is declared as string, but "id:Int" gives number values',
    );

    @Match("/d/on:Day")
    class NumberForDay {
      @Route("GET /x")
      get(@PathVar("on") _on: number) {}
    }
    expectControllerError(() => controllers([NumberForDay]), "PARAM_TYPE_MISMATCH", "NumberForDay", "get");

    class BigForInt {
      @Route("GET /n:Int")
      get(@PathVar("n") _n: bigint) {}
    }
    expectControllerError(() => controllers([BigForInt]), "PARAM_TYPE_MISMATCH", "BigForInt", "get");
  });

  test("declared types that agree, or say nothing, pass", () => {
    class Agreeing {
      @Route("GET /a/i:Int/b:Bool/c:Text/d:Day/e:Integer/f:UUID")
      all(
        @PathVar("i") _i: number,
        @PathVar("b") _b: boolean,
        @PathVar("c") _c: string,
        @PathVar("d") _d: Day,
        @PathVar("e") _e: bigint,
        @PathVar("f") _f: unknown,
      ) {}
      @Route("GET /b/i:Int")
      loose(@PathVar("i") _i: number | undefined) {}
    }
    expect(() => controllers([Agreeing])).not.toThrow();
  });

  test("a class with no routes", () => {
    class Empty {
      helper() {}
    }
    const e = expectControllerError(() => controllers([Empty]), "NO_ROUTES", "Empty");
    expect(e.message).toContain("no @Route method");
  });

  test("@PathVar or @Req on a method without @Route", () => {
    class Helperish {
      @Route("GET /a")
      a() {}
      helper(@Req() _req: RoutedRequest) {}
    }
    expectControllerError(() => controllers([Helperish]), "NOT_A_ROUTE", "Helperish", "helper");
  });

  test("two decorators on one parameter", () => {
    class Both {
      @Route("GET /a/id:Int")
      a(@PathVar("id") @Req() _x: number) {}
    }
    expectControllerError(() => controllers([Both]), "DUPLICATE_PARAM", "Both", "a");
  });

  test("two @Match on one class", () => {
    @Match("/a")
    @Match("/b")
    class TwoPrefixes {
      @Route("GET /")
      a() {}
    }
    expectControllerError(() => controllers([TwoPrefixes]), "DUPLICATE_MATCH", "TwoPrefixes");
  });

  test("a class given twice, or something that is not a class", () => {
    class Once {
      @Route("GET /")
      a() {}
    }
    expectControllerError(() => controllers([Once, Once]), "DUPLICATE_CONTROLLER", "Once");
    expectControllerError(() => controllers([(() => null) as never]), "NOT_A_CLASS", "(anonymous function)");
    expectControllerError(() => controllers([{} as never]), "NOT_A_CLASS", "object");
  });

  test("a resolver that fails, gives no object, or gives a promise", () => {
    class Needy {
      @Route("GET /")
      a() {}
    }
    const failing = expectControllerError(
      () =>
        controllers([Needy], {
          resolve: () => {
            throw new Error("not bound");
          },
        }),
      "RESOLVE_FAILED",
      "Needy",
    );
    expect(failing.message).toContain("not bound");
    expect(failing.cause).toEqual(new Error("not bound"));
    expectControllerError(() => controllers([Needy], { resolve: () => null as never }), "RESOLVE_FAILED", "Needy");
    expectControllerError(
      () => controllers([Needy], { resolve: () => Promise.resolve(new Needy()) }),
      "RESOLVE_FAILED",
      "Needy",
    );
    const e = expectControllerError(() => controllers([Needy], { resolve: () => ({}) }), "NOT_A_METHOD", "Needy", "a");
    expect(e.message).toContain('no method "a"');
  });

  test("decorators in the wrong place fail when the class is defined", () => {
    const staticRoute = errorOf(() => {
      class StaticRoute {
        @Route("GET /")
        static a() {}
      }
      return StaticRoute;
    }) as ControllerError;
    expect([staticRoute.code, staticRoute.message]).toEqual([
      "STATIC_METHOD",
      "StaticRoute.a: @Route is on a static method; routes are instance methods",
    ]);

    const staticParam = errorOf(() => {
      class StaticParam {
        static a(@PathVar("x") _x: string) {}
      }
      return StaticParam;
    }) as ControllerError;
    expect([staticParam.code, staticParam.controller, staticParam.method]).toEqual([
      "STATIC_METHOD",
      "StaticParam",
      "a",
    ]);
    expect(staticParam.message).toBe(
      "StaticParam.a: @PathVar is on a parameter of a static method; routes are instance methods",
    );

    const ctorParam = errorOf(() => {
      class CtorParam {
        constructor(@PathVar("x") readonly x: string) {}
      }
      return CtorParam;
    }) as ControllerError;
    expect([ctorParam.code, ctorParam.controller, ctorParam.method]).toEqual([
      "NOT_A_ROUTE",
      "CtorParam",
      "constructor",
    ]);
    expect(ctorParam.message.startsWith("CtorParam.constructor: @PathVar is on a constructor parameter")).toBe(true);

    const accessor = errorOf(() => {
      class Accessor {
        // @ts-expect-error @Route wants a method: TypeScript rejects an accessor before the runtime does
        @Route("GET /")
        get value() {
          return 1;
        }
      }
      return Accessor;
    }) as ControllerError;
    expect([accessor.code, accessor.controller, accessor.method]).toEqual(["NOT_A_METHOD", "Accessor", "value"]);
    expect(accessor.message).toBe("Accessor.value: @Route is on an accessor or property; it belongs on a method");

    expect(() => PathVar("")).toThrow(TypeError);
    expect(() => Route(5 as never)).toThrow(TypeError);
    expect(() => Match(null as never)).toThrow(TypeError);
  });
});

describe("pattern errors: the grammar and errors of route, with the class and method in front", () => {
  test("a malformed @Route pattern throws its PatternError, naming Class.method", () => {
    class Bad {
      @Route("GET /ok")
      ok() {}
      // @ts-expect-error the compiler rejects this literal too; the test is about the startup check
      @Route("get /users")
      lower() {}
    }
    const e = errorOf(() => controllers([Bad])) as PatternError;
    expect(e).toBeInstanceOf(PatternError);
    expect(e.code).toBe("METHOD_CASE");
    expect(e.message.startsWith('Bad.lower: @Route: invalid route pattern "get /users"')).toBe(true);
  });

  test.each([
    ["GET", "LONE_METHOD"],
    ["/a/x:Nope", "UNKNOWN_TYPE"],
    ["/a/:Int", "EMPTY_LABEL"],
    ["/a/x:Int/x:Int", "DUPLICATE_LABEL"],
    ["GET /a b", "TOO_MANY_TOKENS"],
  ])("@Route(%j) → %s, as route() gives", (pattern, code) => {
    class C {
      @Route(pattern)
      m() {}
    }
    const e = errorOf(() => controllers([C])) as PatternError;
    expect(e).toBeInstanceOf(PatternError);
    expect(e.code).toBe(code);
    expect((errorOf(() => route(pattern, noop)) as PatternError).code).toBe(code);
    expect(e.message.startsWith("C.m: @Route: ")).toBe(true);
  });

  test("a malformed @Match pattern names the class", () => {
    // @ts-expect-error the compiler rejects this literal too; the test is about the startup check
    @Match("/a/x:Nope")
    class BadPrefix {
      @Route("GET /")
      m() {}
    }
    const e = errorOf(() => controllers([BadPrefix])) as PatternError;
    expect(e.code).toBe("UNKNOWN_TYPE");
    expect(e.message.startsWith("BadPrefix: @Match: ")).toBe(true);
  });

  test("a label both in @Match and in a @Route is a DUPLICATE_LABEL naming the method", () => {
    @Match("/o/id:Int")
    class Clash {
      @Route("GET /u/id:Int")
      get(@PathVar("id") _id: number) {}
    }
    const e = errorOf(() => controllers([Clash])) as PatternError;
    expect(e).toBeInstanceOf(PatternError);
    expect(e.code).toBe("DUPLICATE_LABEL");
    expect(e.message.startsWith("Clash.get: @Route: ")).toBe(true);
    expect(e.message).toContain('@Match("/o/id:Int")');
  });

  test("patterns are checked when controllers() runs, so a type registered after the class is found", async () => {
    class Later {
      // @ts-expect-error the compiler rejects this literal too; the test is about the startup check
      @Route("GET /c/v:Colour")
      get(@PathVar("v") v: string) {
        return v;
      }
    }
    expect((errorOf(() => controllers([Later])) as PatternError).code).toBe("UNKNOWN_TYPE");
    registerPathType({
      name: "Colour",
      valueType: String,
      parseUrlPiece: (p: string) => (["red", "green"].includes(p) ? p : NoParse),
      toUrlPiece: (v: string) => v,
    });
    const app = controllers([Later]);
    expect((await inject(app, { url: "/c/red" })).body).toBe("red");
    expect((await inject(app, { url: "/c/blue" })).status).toBe(404);
  });
});
