import { alt, guard, inject, match, route, type RoutedRequest } from "../src";
import { controllers, Guard, Match, PathVar, Query, Route } from "../decorators";
import { expectControllerError, shape } from "./helpers/decorators";

/*
 * Inherited routes, the rule of routing-controllers and NestJS: a controller's own routes (declaration
 * order), then its base class's, then that one's base's. A method routed on several levels counts once,
 * where the nearest class routes it; an override without @Route keeps the base's route and runs.
 */

const names = async (app: ReturnType<typeof controllers>, url: string, method = "GET") =>
  (await inject(app, { method, url })).body;

describe("inheritance", () => {
  class Base {
    @Route("GET /base-a")
    a() {
      return "Base.a";
    }
    @Route("GET /base-b")
    b() {
      return "Base.b";
    }
  }

  test("a subclass with no routes of its own serves its base's", async () => {
    class Empty extends Base {}
    const app = controllers([Empty]);
    expect(await names(app, "/base-a")).toBe("Base.a");
    expect(await names(app, "/base-b")).toBe("Base.b");
  });

  test("own routes first (declaration order), then the base's: never silently dropped", () => {
    class Child extends Base {
      @Route("GET /child-z")
      z() {}
      @Route("GET /child-y")
      y() {}
    }
    const h = () => null;
    expect(shape(controllers([Child]))).toEqual(
      shape(alt(route("GET /child-z", h), route("GET /child-y", h), route("GET /base-a", h), route("GET /base-b", h))),
    );
  });

  test("the order decides which route answers: a subclass's route shadows its base's catch-all", async () => {
    @Match("/items")
    class Catalog {
      @Route("GET /name:Text")
      byName(@PathVar("name") name: string) {
        return `item ${name}`;
      }
    }
    class WithFeatured extends Catalog {
      @Route("GET /featured")
      featured() {
        return "featured";
      }
    }
    const app = controllers([WithFeatured]);
    expect(await names(app, "/items/featured")).toBe("featured");
    expect(await names(app, "/items/lamp")).toBe("item lamp");
  });

  test("an override without @Route keeps the base's route and position; the override runs", async () => {
    class Override extends Base {
      @Route("GET /own")
      own() {
        return "own";
      }
      override a() {
        return `Override.a over ${super.a()}`;
      }
    }
    const app = controllers([Override]);
    expect(await names(app, "/base-a")).toBe("Override.a over Base.a");
    const h = () => null;
    expect(shape(app)).toEqual(shape(alt(route("GET /own", h), route("GET /base-a", h), route("GET /base-b", h))));
  });

  test("an override with its own @Route replaces the base's route, at the subclass's position", async () => {
    class Moved extends Base {
      @Route("GET /moved")
      override a() {
        return "Moved.a";
      }
    }
    const app = controllers([Moved]);
    expect(await names(app, "/moved")).toBe("Moved.a");
    expect((await inject(app, { url: "/base-a" })).status).toBe(404);
    const h = () => null;
    expect(shape(app)).toEqual(shape(alt(route("GET /moved", h), route("GET /base-b", h))));
  });

  test("an inherited route keeps its own parameter decorators and path variables", async () => {
    class Paged {
      @Route("GET /page/n:Int")
      page(@PathVar("n") n: number, @Query("size", undefined, { optional: true }) size?: string) {
        return { n, size: size ?? null };
      }
    }
    class Sub extends Paged {}
    const app = controllers([Sub]);
    expect(JSON.parse(await names(app, "/page/3?size=big"))).toEqual({ n: 3, size: "big" });
  });

  test("three levels: nearest first; the base class itself stays a controller of its own", async () => {
    class A {
      @Route("GET /a")
      a() {
        return "A";
      }
    }
    class B extends A {
      @Route("GET /b")
      b() {
        return "B";
      }
    }
    class C extends B {
      @Route("GET /c")
      c() {
        return "C";
      }
    }
    const h = () => null;
    expect(shape(controllers([C]))).toEqual(shape(alt(route("GET /c", h), route("GET /b", h), route("GET /a", h))));
    expect(shape(controllers([A]))).toEqual(shape(route("GET /a", h)));
    expect(await names(controllers([C]), "/a")).toBe("A");
  });

  test("@Match: a subclass's own prefix, else its nearest base's", async () => {
    @Match("/v1")
    class V1 {
      @Route("GET /ping")
      ping() {
        return "pong";
      }
    }
    class SamePrefix extends V1 {}
    @Match("/v2")
    class V2 extends V1 {}
    expect(await names(controllers([SamePrefix]), "/v1/ping")).toBe("pong");
    expect(await names(controllers([V2]), "/v2/ping")).toBe("pong");
    expect((await inject(controllers([V2]), { url: "/v1/ping" })).status).toBe(404);
  });

  test("class guards: the base's first, then the subclass's; method guards stay with their route", () => {
    const fromBase = (_: RoutedRequest) => true;
    const fromSub = (_: RoutedRequest) => true;
    const onMethod = (_: RoutedRequest) => true;
    @Guard(fromBase)
    @Match("/g")
    class GuardedBase {
      @Guard(onMethod)
      @Route("GET /x")
      x() {}
    }
    @Guard(fromSub)
    class GuardedSub extends GuardedBase {
      @Route("GET /y")
      y() {}
    }
    const h = () => null;
    expect(shape(controllers([GuardedSub]))).toEqual(
      shape(
        match(
          "/g",
          alt(
            route("GET /y", guard(fromBase, guard(fromSub, h))),
            route("GET /x", guard(fromBase, guard(fromSub, guard(onMethod, h)))),
          ),
        ),
      ),
    );
  });

  test("parameter decorators on an override without @Route are a startup error that says what to do", () => {
    class Sub extends Base {
      override a(@Query("q") _q?: string) {
        return "x";
      }
    }
    const e = expectControllerError(() => controllers([Sub]), "NOT_A_ROUTE", "Sub", "a");
    expect(e.message).toContain("it overrides a base class's route: give the override its own @Route");
  });
});
