import "reflect-metadata";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Min } from "class-validator";
import {
  alt,
  allowedMethods,
  Bool,
  compile,
  described,
  Double,
  guard,
  Int,
  Int64,
  Integer,
  match,
  NoParse,
  type PathParser,
  pathVar,
  printRoutes,
  printShadowed,
  route,
  routes,
  shadowed,
  Text,
  UrlError,
  urlFor,
  UUID,
  Word,
  type RouteNode,
} from "../src";
import { controllers, Describe, Match, Newtype, PathVar, Route } from "../decorators";
import { createApp as createFunctionalApp, createUserStore } from "../samples/functional/app";
import { createApp as createControllersApp } from "../samples/controllers/app";
import { UsersController } from "../samples/controllers/users";
import { UserId } from "../samples/controllers/ids";

const ok = () => "ok";

/** The index (from 1, as printed) of each caught route and its verdict. */
function verdicts(tree: RouteNode): [number, string, number[]][] {
  return shadowed(tree).map((s) => [s.route.index + 1, s.verdict, s.by.map((b) => b.index + 1)]);
}

describe("routes: the ordered listing", () => {
  test("the functional sample, in the order its routes are tried", () => {
    const listed = routes(createFunctionalApp(createUserStore(), "k"));
    expect(listed.map((r) => [r.method, r.path, r.exact])).toEqual([
      ["GET", "/health", true],
      ["GET", "/api/users", true],
      ["GET", "/api/users/{id}", true],
      ["GET", "/api/users/{name}", true],
      ["POST", "/api/users", true],
      ["GET", "/api/reports/{on}", true],
      ["DELETE", "/api/users/{id}", true],
      ["GET", "/static", false],
    ]);
    expect(listed[2]!.variables.map((v) => [v.label, v.type])).toEqual([["id", "Int"]]);
    expect(listed[5]!.variables.map((v) => [v.label, v.type])).toEqual([["on", "Day"]]);
    expect(listed.map((r) => r.guards.length)).toEqual([0, 0, 0, 0, 0, 0, 1, 0]);
  });

  test("the controllers sample: handler names are Class.method, tags the class", () => {
    const listed = routes(createControllersApp());
    expect(listed.map((r) => `${r.method} ${r.path} ${r.handler}`)).toEqual([
      "GET /health HealthController.health",
      "GET /api/users UsersController.list",
      "GET /api/users/me UsersController.me",
      "GET /api/users/{id} UsersController.byId",
      "GET /api/users/{name} UsersController.byName",
      "POST /api/users UsersController.create",
      "DELETE /api/users/{id} UsersController.remove",
      "GET /api/reports/{on} ReportsController.on",
      "POST /api/avatars UploadsController.upload",
      "GET /api/countdown EventsController.countdown",
      "GET /static (anonymous)",
    ]);
    expect(listed[3]!.variables[0]!.type).toBe("UserId");
    expect(listed[3]!.info?.tags).toEqual(["Users"]);
    expect(listed[3]!.info?.target).toBe(UsersController.prototype.byId);
  });

  test("the listing is the order find answers in: each route's own request reaches it or an earlier one", () => {
    const tree = createFunctionalApp();
    const router = compile(tree);
    const listed = routes(tree);
    const sample: Record<string, string> = { "{id}": "1", "{name}": "ada", "{on}": "2024-02-29" };
    for (const r of listed) {
      const url = r.path.replace(/\{[a-z]+\}/g, (v) => sample[v]!) + (r.exact ? "" : "/x");
      const found = router.find(r.method!, url);
      expect(listed.findIndex((l) => l.leaf.handler === found?.handler)).toBe(r.index);
    }
  });

  test("names: a named function, described info, a guard's predicate name", () => {
    function listUsers() {
      return [];
    }
    const isAdmin = () => true;
    const tree = alt(
      route("GET /u", listUsers),
      guard(isAdmin, route("GET /v", described(ok, { name: "Admin.view" }))),
    );
    expect(routes(tree).map((r) => [r.handler, r.guards])).toEqual([
      ["listUsers", []],
      ["Admin.view", ["isAdmin"]],
    ]);
  });

  test("printRoutes: one row per route, typed variables, a rest marked /…, guards in the notes", () => {
    const printed = printRoutes(createFunctionalApp());
    const rows = printed
      .trimEnd()
      .split("\n")
      .map((line) => line.split(/\s{2,}/));
    expect(rows[0]).toEqual(["#", "METHOD", "PATH", "HANDLER", "NOTES"]);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ["1", "GET", "/health"],
      ["2", "GET", "/api/users"],
      ["3", "GET", "/api/users/{id:Int}"],
      ["4", "GET", "/api/users/{name:Text}"],
      ["5", "POST", "/api/users"],
      ["6", "GET", "/api/reports/{on:Day}"],
      ["7", "DELETE", "/api/users/{id:Int}"],
      ["8", "GET", "/static/…"],
    ]);
    expect(rows[7]!.at(-1)).toMatch(/^guard: /);
    expect(printRoutes(route("/", ok))).toMatch(/1\s+\*\s+\/\s+ok/);
  });
});

describe("shadowed: what earlier routes catch, and why", () => {
  test("the README's sample apps have no caught routes", () => {
    expect(shadowed(createFunctionalApp())).toEqual([]);
    expect(shadowed(createControllersApp())).toEqual([]);
    expect(printShadowed(createFunctionalApp())).toBe("");
  });

  test("a literal a parser accepts, after that parser (Text vs /me, Int vs /42)", () => {
    expect(verdicts(alt(route("GET /u/name:Text", ok), route("GET /u/me", ok)))).toEqual([[2, "unreachable", [1]]]);
    expect(
      verdicts(alt(route("GET /n/id:Int", ok), route("GET /n/42", ok), route("GET /n/x", ok), route("GET /n/4.2", ok))),
    ).toEqual([[2, "unreachable", [1]]]);
    // the literal first: each route keeps its own requests
    expect(verdicts(alt(route("GET /u/me", ok), route("GET /u/name:Text", ok)))).toEqual([]);
  });

  test("a parser after one that includes it (Word ⊂ Int ⊂ Int64 ⊂ Integer ⊂ Double ⊂ Text), not the other way", () => {
    const after = (first: PathParser<unknown>, second: PathParser<unknown>) =>
      verdicts(alt(pathVar("a", first, ok), pathVar("b", second, ok))).length === 1;
    const chain = [Word, Int, Int64, Integer, Double, Text];
    chain.forEach((inner, i) =>
      chain.forEach((outer, j) =>
        expect([inner.name, outer.name, after(outer, inner)]).toEqual([inner.name, outer.name, j >= i]),
      ),
    );
    for (const p of [Bool, UUID]) {
      expect(after(Text, p)).toBe(true);
      expect(after(Int, p)).toBe(false);
      expect(after(p, Text)).toBe(false);
    }
  });

  test("methods: a route with no method catches every method; one method catches only itself", () => {
    expect(verdicts(alt(route("/a", ok), route("GET /a", ok)))).toEqual([[2, "unreachable", [1]]]);
    expect(verdicts(alt(route("GET /a", ok), route("/a", ok)))).toEqual([]);
    expect(verdicts(alt(route("GET /a", ok), route("POST /a", ok), route("GET /a", ok)))).toEqual([
      [3, "unreachable", [1]],
    ]);
  });

  test("prefixes and pathEnd: a match catches longer routes; an exact route catches no prefix", () => {
    expect(verdicts(alt(match("/static", ok), route("GET /static/css/x", ok)))).toEqual([[2, "unreachable", [1]]]);
    expect(verdicts(alt(route("GET /static", ok), route("GET /static/x", ok), match("/static", ok)))).toEqual([]);
    expect(verdicts(alt(match("/a/b", ok), route("/a", ok)))).toEqual([]);
  });

  test("a prefix caught piecewise: the path ending there by one route, any longer path by another", () => {
    const tree = alt(route("/a", ok), match("/a/x:Text", ok), match("/a", ok));
    expect(verdicts(tree)).toEqual([[3, "unreachable", [1, 2]]]);
  });

  test("guards: caught only through fall-through, and the report says which guard", () => {
    const hasKey = () => true;
    const report = shadowed(alt(guard(hasKey, route("GET /a", ok)), route("GET /a", ok), route("GET /a", ok)));
    expect(report.map((s) => [s.route.index + 1, s.verdict])).toEqual([
      [2, "fall-through"],
      [3, "unreachable"],
    ]);
    expect(report[0]!.reason).toContain("hasKey");
    expect(report[1]!.reason).toContain("routeMismatch()");
    expect(printShadowed(alt(guard(hasKey, route("GET /a", ok)), route("GET /a", ok)))).toMatch(
      /^#2 GET \/a \(ok\): fall-through\n {2}every request/,
    );
  });

  test("newtypes declare their base: UserId (an Int ≥ 1) after Int is caught, Int after UserId is not", () => {
    expect(verdicts(alt(route("GET /u/id:Int", ok), route("GET /u/id:UserId", ok)))).toEqual([[2, "unreachable", [1]]]);
    expect(verdicts(alt(route("GET /u/id:UserId", ok), route("GET /u/id:Int", ok)))).toEqual([]);
  });

  test("what it cannot prove it does not claim: literals filling a parser, parsers with no declared relation", () => {
    // Bool also accepts TRUE, False, …: /b/TRUE still reaches the third route
    expect(verdicts(alt(route("/b/true", ok), route("/b/false", ok), pathVar("x", Bool, ok)))).toEqual([]);
    const Lower: PathParser<string> = {
      name: "Lower",
      parseUrlPiece: (p) => (/^[a-z]+$/.test(p) ? p : NoParse),
      toUrlPiece: String,
    };
    const Letters: PathParser<string> = {
      name: "Letters",
      parseUrlPiece: (p) => (/^[a-zA-Z]+$/.test(p) ? p : NoParse),
      toUrlPiece: String,
    };
    expect(verdicts(alt(pathVar("x", Letters, ok), pathVar("y", Lower, ok)))).toEqual([]);
    // once the fact is declared, the shadow is reported
    const DeclaredLower: PathParser<string> = { ...Lower, includedIn: [Letters] };
    expect(verdicts(alt(pathVar("x", Letters, ok), pathVar("y", DeclaredLower, ok)))).toEqual([
      [2, "unreachable", [1]],
    ]);
  });

  test("controllers({ unreachable: 'throw' }) names the caught method", () => {
    class Catcher {
      @Route("GET /x/name:Text") any(@PathVar("name") name: string) {
        return name;
      }
      @Route("GET /x/me") me() {
        return "me";
      }
    }
    expect(() => controllers([Catcher])).not.toThrow();
    expect(() => controllers([Catcher], { unreachable: "throw" })).toThrow(
      /controllers: 1 unreachable route:\n {2}#2 GET \/x\/me \(Catcher\.me\)/,
    );
  });
});

describe("urlFor", () => {
  const byId = route("GET /users/id:Int", ok);
  const byDay = route("GET /reports/on:Day", ok);
  const files = match("/files", ok);
  const tree = match("/org/org:Text", alt(byId, byDay, files));

  test("enclosing prefixes, parsers' toUrlPiece, percent-encoding the router reads back", () => {
    const url = urlFor(tree, byId, { org: "a b/c?%", id: -7 });
    expect(url).toBe("/org/a%20b%2Fc%3F%25/users/-7");
    const found = compile(tree).find("GET", url)!;
    expect({ ...found.vars }).toEqual({ org: "a b/c?%", id: -7 });
    expect(urlFor(tree, files, { org: "x" }, { rest: ["a b", "c"] })).toBe("/org/x/files/a%20b/c");
  });

  test("vars are typed from the route's pattern", () => {
    // @ts-expect-error id is a number (at run time the parser's toUrlPiece writes what it is given)
    expect(urlFor(tree, byId, { org: "x", id: "7" })).toBe("/org/x/users/7");
    // @ts-expect-error id is missing
    expect(() => urlFor(tree, byId, { org: "x" })).toThrow(/no value for "id" \(a Int\)/);
  });

  test("a controller method is a target", () => {
    const app = createControllersApp();
    expect(urlFor(app, UsersController.prototype.byId, { id: UserId.of(7) })).toBe("/api/users/7");
    expect(urlFor(app, UsersController.prototype.list, {})).toBe("/api/users");
  });

  test("clear errors: not in the tree, mounted twice, a value its parser cannot read back, an empty lone segment", () => {
    expect(() => urlFor(tree, route("GET /elsewhere", ok), {})).toThrow(/urlFor: the method node is not in this tree/);
    const twice = alt(match("/v1", byId), match("/v2", byId));
    expect(() => urlFor(twice, byId, { id: 1 })).toThrow(/mounted in more than one place/);
    expect(() => urlFor(twice, alt(byId, byDay), { id: 1 })).toThrow(UrlError);
    expect(() => urlFor(tree, byId, { org: "x", id: 1.5 })).toThrow(
      /the value of "id" is written "1.5", which Int does not parse back/,
    );
    expect(() => urlFor(pathVar("d", Double, ok), pathVar("d", Double, ok), { d: 1 })).toThrow(/not in this tree/);
    const d = pathVar("d", Double, ok);
    expect(() => urlFor(d, d, { d: Infinity })).toThrow(/"Infinity", which Double does not parse back/);
    const t = pathVar("t", Text, ok);
    expect(() => urlFor(t, t, { t: "" })).toThrow(/single empty segment/);
    expect(() => urlFor(t, t, { t: "\uD800" })).toThrow(/lone surrogate/);
    expect(() => urlFor(tree, match("/org/org:Text", byId), { org: "x", id: 1 })).toThrow(/not in this tree/);
  });
});

describe("allowedMethods", () => {
  test("the methods a path is routed under, in route order; any; none", () => {
    const app = createFunctionalApp();
    expect(allowedMethods(app, "/api/users")).toEqual(["GET", "POST"]);
    expect(allowedMethods(app, "/api/users/1?x=y")).toEqual(["GET", "DELETE"]);
    expect(allowedMethods(app, ["api", "users", "ada"])).toEqual(["GET"]);
    expect(allowedMethods(app, "/nowhere")).toEqual([]);
    expect(allowedMethods(alt(route("GET /a", ok), match("/a", ok)), "/a")).toBe("any");
  });
});

describe("decorator docs", () => {
  test("@Describe adds summary, description, tags and responses to the handler info", () => {
    @Match("/d")
    class Docs {
      @Describe({ summary: "one", description: "more", tags: ["T"], responses: { "200": { description: "fine" } } })
      @Route("GET /x")
      x() {
        return 1;
      }
    }
    expect(routes(controllers([Docs]))[0]!.info).toMatchObject({
      name: "Docs.x",
      summary: "one",
      description: "more",
      tags: ["T"],
      responses: { "200": { description: "fine" } },
    });
  });

  test("a route inherited from a base class keeps the docs written there; an override's own docs win", () => {
    class Base {
      @Describe({ summary: "from the base" })
      @Route("GET /inherited")
      inherited() {
        return 1;
      }
      @Describe({ summary: "base version" })
      @Route("GET /overridden")
      overridden() {
        return 2;
      }
    }
    @Match("/sub")
    class Sub extends Base {
      @Describe({ summary: "sub version" })
      @Route("GET /overridden")
      override overridden() {
        return 3;
      }
    }
    const summaries = Object.fromEntries(routes(controllers([Sub])).map((r) => [r.info?.name, r.info?.summary]));
    expect(summaries).toEqual({ "Sub.overridden": "sub version", "Sub.inherited": "from the base" });
  });

  test("a newtype's schema: its base's, narrowed by @Min", () => {
    class Positive extends Newtype(Int) {
      @Min(1) declare readonly value: number;
    }
    expect((Positive as unknown as PathParser<unknown>).openApiSchema).toEqual({
      type: "integer",
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect((Positive as unknown as PathParser<unknown>).includedIn).toEqual([Int]);
  });
});

describe('the README\'s "Seeing your routes" example', () => {
  test("its printed table and shadow report are what the functions print", () => {
    const readme = readFileSync(path.join(__dirname, "../README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Seeing your routes"));
    const health = () => ({ status: "ok" });
    function userById() {
      return "x";
    }
    function userByName() {
      return "x";
    }
    function me() {
      return "x";
    }
    function createUser() {
      return "x";
    }
    function removeUser() {
      return "x";
    }
    function files() {
      return "x";
    }
    const hasApiKey = () => true;
    const byId = route("GET /users/id:Int", userById);
    const app = alt(
      route("GET /health", health),
      match(
        "/api",
        alt(
          byId,
          route("GET /users/name:Text", userByName),
          route("GET /users/me", me),
          route("POST /users", createUser),
          guard(hasApiKey, route("DELETE /users/id:Int", removeUser)),
        ),
      ),
      match("GET /static", files),
    );
    expect(section).toContain(`\`\`\`\n${printRoutes(app)}\`\`\``);
    expect(section).toContain(`\`\`\`\n${printShadowed(app)}\`\`\``);
    expect(urlFor(app, byId, { id: 42 })).toBe("/api/users/42");
    expect(section).toContain('urlFor(app, byId, { id: 42 });                                    // "/api/users/42"');
  });
});

describe("printRoutes: names", () => {
  test("info.name, the function's name, <inline> for a nameless handler or guard (never 'guard: guard')", () => {
    const listUsers = () => [];
    const isAdmin = () => true;
    const tree = alt(
      route("GET /users", listUsers),
      route("GET /health", () => "ok"),
      route(
        "GET /docs",
        described(() => "…", { name: "Docs.index" }),
      ),
      guard((req) => req.headers.get("x-api-key") === "k", route("DELETE /cache", listUsers)),
      guard(
        isAdmin,
        guard(() => true, route("GET /admin", ok)),
      ),
    );
    const cells = printRoutes(tree)
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => line.split(/\s{2,}/).slice(3));
    expect(cells).toEqual([
      ["listUsers"],
      ["<inline>"],
      ["Docs.index"],
      ["listUsers", "guard: <inline>"],
      ["ok", "guard: isAdmin, <inline>"],
    ]);
    // the data keeps its placeholders, which OpenAPI ids and the shadow report read
    expect(routes(tree).map((r) => [r.handler, r.guards])).toEqual([
      ["listUsers", []],
      ["(anonymous)", []],
      ["Docs.index", []],
      ["listUsers", ["guard"]],
      ["ok", ["isAdmin", "guard"]],
    ]);
  });
});
