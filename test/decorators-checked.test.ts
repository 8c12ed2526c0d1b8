import { inject, PatternError, type RoutedRequest, routeMismatch, urlFor } from "../src";
import { Controller, ControllerError, controllers, Guard, Handle, Match, Route, Use } from "../decorators";
import { errorOf } from "./helpers/decorators";

/*
 * The checked style at run time: a @Handle method is called with the routed request alone, its
 * route built as @Route's (guards, middlewares, inheritance, order), and Controller(prefix) is the
 * class's @Match. What the compiler checks is in test/types/checked-decorators.test.ts; what startup
 * still checks (a pattern that is not a literal, the prefix given twice) is here.
 */

const get = (tree: Parameters<typeof inject>[0], url: string, headers?: Record<string, string>) =>
  inject(tree, { url, ...(headers === undefined ? {} : { headers }) }).then((r) => [r.status, r.body]);

describe("a @Handle method", () => {
  class Users extends Controller("/orgs/org:Text/users") {
    seen: unknown[][] = [];

    @Handle("GET /id:Int")
    byId(req: RoutedRequest<{ org: string; id: number }>) {
      // biome-ignore lint/complexity/noArguments: what the method is called with is the point
      this.seen.push([...arguments]);
      return req.vars.id === 0 ? routeMismatch() : { org: req.vars.org, id: req.vars.id };
    }

    @Handle("GET /name:Text")
    byName(req: RoutedRequest<{ name: string }>) {
      return { name: req.vars.name };
    }

    @Guard((req) => req.headers.get("x-admin") === "yes")
    @Use(async (_req, next) => {
      const inner = await next();
      return inner === null ? "refused" : inner;
    })
    @Handle("DELETE /id:Int")
    remove(req: RoutedRequest<{ id: number }>) {
      return { deleted: req.vars.id };
    }

    @Handle("GET /")
    list() {
      return ["ada"];
    }
  }

  let instance: Users;
  const app = controllers([Users], {
    resolve: (C) => {
      instance = new C() as Users;
      return instance;
    },
  });

  test("is called with the routed request alone, its variables parsed (the prefix's too)", async () => {
    expect(await get(app, "/orgs/acme/users/7")).toEqual([200, '{"org":"acme","id":7}']);
    expect(instance.seen).toHaveLength(1);
    const [args] = instance.seen;
    expect(args).toHaveLength(1);
    expect((args![0] as RoutedRequest).vars).toEqual({ org: "acme", id: 7 });
  });

  test("falls through like any route: routeMismatch(), then the next route in declaration order", async () => {
    expect(await get(app, "/orgs/acme/users/0")).toEqual([200, '{"name":"0"}']);
    expect(await get(app, "/orgs/acme/users")).toEqual([200, '["ada"]']);
  });

  test("takes @Guard and @Use as @Route does", async () => {
    const remove = (headers?: Record<string, string>) =>
      inject(app, { method: "DELETE", url: "/orgs/acme/users/7", ...(headers ? { headers } : {}) }).then((r) => [
        r.status,
        r.body,
      ]);
    expect(await remove()).toEqual([200, "refused"]);
    expect(await remove({ "x-admin": "yes" })).toEqual([200, '{"deleted":7}']);
  });

  test("is a urlFor target, as a @Route method is", () => {
    expect(urlFor(app, Users.prototype.byId, { org: "a b", id: 7 })).toBe("/orgs/a%20b/users/7");
  });

  test("inheritance: an override without @Handle keeps the route and runs; one with @Handle replaces it", async () => {
    class Base extends Controller("/b") {
      @Handle("GET /x/n:Int")
      x(req: RoutedRequest<{ n: number }>) {
        return `base ${req.vars.n}`;
      }
      @Handle("GET /y")
      y() {
        return "base y";
      }
    }
    class Sub extends Base {
      override x(req: RoutedRequest<{ n: number }>) {
        return `sub ${req.vars.n}`;
      }
      @Handle("GET /why")
      override y() {
        return "sub y";
      }
    }
    const tree = controllers([Sub]);
    expect(await get(tree, "/b/x/3")).toEqual([200, "sub 3"]);
    expect(await get(tree, "/b/why")).toEqual([200, "sub y"]);
    expect(await get(tree, "/b/y")).toEqual([404, ""]);
  });

  test("mixes with @Route methods in one class, in declaration order", async () => {
    @Match("/m")
    class Mixed {
      @Handle("GET /a/id:Int")
      a(req: RoutedRequest<{ id: number }>) {
        return `handle ${req.vars.id}`;
      }
      @Route("GET /a/x")
      b() {
        return "route";
      }
    }
    const tree = controllers([Mixed]);
    expect(await get(tree, "/m/a/1")).toEqual([200, "handle 1"]);
    expect(await get(tree, "/m/a/x")).toEqual([200, "route"]);
  });
});

describe("Controller(prefix)", () => {
  test("is the class's @Match, and extends a base class given to it", async () => {
    class Base {
      @Route("GET /ping")
      ping() {
        return "pong";
      }
    }
    class Api extends Controller("/api/v:Int", Base) {
      @Handle("GET /info")
      info(req: RoutedRequest<{ v: number }>) {
        return { v: req.vars.v };
      }
    }
    const tree = controllers([Api]);
    expect(await get(tree, "/api/2/info")).toEqual([200, '{"v":2}']);
    expect(await get(tree, "/api/2/ping")).toEqual([200, "pong"]);
    expect(new Api()).toBeInstanceOf(Base);
  });

  test("with a @Match below it, is refused: the prefix the compiler checked would silently change", () => {
    @Match("/other")
    class Twice extends Controller("/users") {
      @Handle("GET /")
      list() {
        return [];
      }
    }
    const error = errorOf(() => controllers([Twice])) as ControllerError;
    expect([error.code, error.message]).toEqual([
      "DUPLICATE_MATCH",
      'Twice: Twice has @Match("/other") but extends Controller("/users"), whose prefix the compiler checks the routes against; give the prefix in one place',
    ]);
  });
});

describe("what startup still checks", () => {
  const dynamic = (pattern: string) => pattern;

  test("a pattern that is not a literal: its PatternError names the class and method", () => {
    class Bad extends Controller("/x") {
      @Handle(dynamic("GET /id:Intt"))
      m() {}
    }
    const error = errorOf(() => controllers([Bad])) as PatternError;
    expect(error).toBeInstanceOf(PatternError);
    expect(error.code).toBe("UNKNOWN_TYPE");
    expect(error.message.startsWith("Bad.m: @Handle: ") || error.message.startsWith("Bad.m: @Route: ")).toBe(true);
  });

  test("a label the prefix captures too, when the compiler could not see either", () => {
    class Clash extends Controller(dynamic("/o/id:Int")) {
      @Handle(dynamic("GET /id:Int"))
      m() {}
    }
    expect((errorOf(() => controllers([Clash])) as PatternError).code).toBe("DUPLICATE_LABEL");
  });

  test("a @Handle on an accessor or a static method is refused when the class is defined", () => {
    expect(
      (
        errorOf(() => {
          class A {
            @Handle("GET /")
            static s() {}
          }
          return A;
        }) as ControllerError
      ).code,
    ).toBe("STATIC_METHOD");
  });
});
