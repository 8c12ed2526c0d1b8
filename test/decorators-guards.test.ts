import "reflect-metadata";
import { Container, injectable as inversifyInjectable } from "inversify";
import { container as rootContainer, injectable } from "tsyringe";
import { alt, guard, headerParam, inject, match, route, routeMismatch, type RoutedRequest } from "../src";
import { controllers, ControllerError, Guard, Match, PathVar, Route, type CanActivate } from "../decorators";
import { errorOf, expectControllerError, shape } from "./helpers/decorators";

/*
 * @Guard on a class or a method compiles to the tree's guard nodes: a refused guard is a mismatch, so
 * the next route is tried, exactly as with the functional guard().
 */

/** A request header, or undefined. */
const headerOf = (req: RoutedRequest, name: string) => headerParam(req, name, undefined, { optional: true });
const header = (name: string) => (req: RoutedRequest) => headerOf(req, name) !== undefined;

describe("@Guard builds the functional guard nodes", () => {
  const isAdmin = header("x-admin");
  const isBeta = header("x-beta");
  const isOwner = header("x-owner");

  test("class guards, then method guards, in the order written, each route guarded after its pattern", () => {
    @Guard(isAdmin)
    @Guard(isBeta)
    @Match("/admin")
    class Admin {
      @Route("GET /stats")
      stats() {}

      @Guard(isOwner)
      @Route("DELETE /id:Int")
      remove(@PathVar("id") _id: number) {}
    }
    const handler = () => null;
    const functional = match(
      "/admin",
      alt(
        route("GET /stats", guard(isAdmin, guard(isBeta, handler))),
        route("DELETE /id:Int", guard(isAdmin, guard(isBeta, guard(isOwner, handler)))),
      ),
    );
    expect(shape(controllers([Admin]))).toEqual(shape(functional));
  });

  test("@Guard(a, b) is @Guard(a) @Guard(b)", () => {
    class One {
      @Guard(isAdmin, isBeta)
      @Route("GET /")
      index() {}
    }
    class Two {
      @Guard(isAdmin)
      @Guard(isBeta)
      @Route("GET /")
      index() {}
    }
    expect(shape(controllers([One]))).toEqual(shape(controllers([Two])));
    expect(shape(controllers([One]))).toEqual(
      shape(
        route(
          "GET /",
          guard(
            isAdmin,
            guard(isBeta, () => null),
          ),
        ),
      ),
    );
  });
});

describe("guards at run time", () => {
  test("guards run in order and stop at the first refusal; a refusal falls through to the next route", async () => {
    const calls: string[] = [];
    const named = (name: string, answer: (req: RoutedRequest) => boolean) => (req: RoutedRequest) => {
      calls.push(name);
      return answer(req);
    };
    @Guard(named("class", header("x-user")))
    class Secret {
      @Guard(
        named("first", header("x-admin")),
        named("second", () => true),
      )
      @Route("GET /data")
      data() {
        return "secret";
      }
    }
    class Public {
      @Route("GET /data")
      data() {
        return "public";
      }
    }
    const app = controllers([Secret, Public]);

    expect((await inject(app, { url: "/data", headers: { "x-user": "u", "x-admin": "1" } })).body).toBe("secret");
    expect(calls).toEqual(["class", "first", "second"]);

    calls.length = 0;
    expect((await inject(app, { url: "/data", headers: { "x-user": "u" } })).body).toBe("public");
    expect(calls).toEqual(["class", "first"]);

    calls.length = 0;
    expect((await inject(app, { url: "/data" })).body).toBe("public");
    expect(calls).toEqual(["class"]);
  });

  test("guards run only when the route's method and path match", async () => {
    let calls = 0;
    class Guarded {
      @Guard(() => {
        calls++;
        return true;
      })
      @Route("GET /only")
      only() {
        return "ok";
      }
    }
    const app = controllers([Guarded]);
    expect((await inject(app, { url: "/other" })).status).toBe(404);
    expect((await inject(app, { method: "POST", url: "/only" })).status).toBe(404);
    expect(calls).toBe(0);
    expect((await inject(app, { url: "/only" })).body).toBe("ok");
    expect(calls).toBe(1);
  });

  test("async guards: a promise of false is a mismatch, a rejection is a 500", async () => {
    class Async {
      @Guard(async (req) => headerOf(req, "x-token") === "good")
      @Route("GET /")
      index() {
        return "in";
      }
    }
    class Failing {
      @Guard(async () => {
        throw new Error("guard broke");
      })
      @Route("GET /broken")
      broken() {
        return "never";
      }
    }
    const app = alt(
      controllers([Async, Failing]),
      route("GET /", () => "fallback"),
    );
    expect((await inject(app, { url: "/", headers: { "x-token": "good" } })).body).toBe("in");
    expect((await inject(app, { url: "/", headers: { "x-token": "bad" } })).body).toBe("fallback");
    const errors: unknown[] = [];
    expect((await inject(app, { url: "/broken" }, { onError: (e) => errors.push(e) })).status).toBe(500);
    expect(errors).toHaveLength(1);
  });

  test("a guard sees the captured path variables", async () => {
    @Match("/users/id:Int")
    class Users {
      @Guard((req: RoutedRequest<{ id: number }>) => req.vars.id !== 13)
      @Route("GET /")
      get(@PathVar("id") id: number) {
        return { id };
      }
    }
    const app = alt(controllers([Users]), () => routeMismatch());
    expect((await inject(app, { url: "/users/12" })).body).toBe('{"id":12}');
    expect((await inject(app, { url: "/users/13" })).status).toBe(404);
  });
});

describe("guard classes are resolved like controllers", () => {
  @injectable()
  class ApiKeys {
    readonly valid = new Set(["k1"]);
  }

  @injectable()
  class ApiKeyGuard implements CanActivate {
    constructor(private readonly keys: ApiKeys) {}
    canActivate(req: RoutedRequest): boolean {
      return this.keys.valid.has(String(headerOf(req, "x-api-key")));
    }
  }

  @Guard(ApiKeyGuard)
  class Keyed {
    @Route("GET /keyed")
    keyed() {
      return "with key";
    }
  }

  test("tsyringe: the guard class gets its injected service; one instance for the app", async () => {
    const container = rootContainer.createChildContainer();
    container.registerSingleton(ApiKeys);
    const resolved: unknown[] = [];
    const app = alt(
      controllers([Keyed], { resolve: (C) => (resolved.push(C), container.resolve(C)) }),
      route("GET /keyed", () => "no key"),
    );
    expect(resolved).toEqual([Keyed, ApiKeyGuard]);
    expect((await inject(app, { url: "/keyed", headers: { "x-api-key": "k1" } })).body).toBe("with key");
    expect((await inject(app, { url: "/keyed", headers: { "x-api-key": "k2" } })).body).toBe("no key");
    container.resolve(ApiKeys).valid.add("k2");
    expect((await inject(app, { url: "/keyed", headers: { "x-api-key": "k2" } })).body).toBe("with key");
    expect(resolved).toHaveLength(2);
  });

  test("inversify: the same guard class through container.get", async () => {
    @inversifyInjectable()
    class Clock {
      hour = 9;
    }
    @inversifyInjectable()
    class OfficeHours implements CanActivate {
      constructor(private readonly clock: Clock) {}
      async canActivate(): Promise<boolean> {
        return this.clock.hour >= 9 && this.clock.hour < 17;
      }
    }
    @inversifyInjectable()
    @Guard(OfficeHours)
    class Desk {
      @Route("GET /desk")
      desk() {
        return "open";
      }
    }
    const container = new Container();
    container.bind(Clock).toSelf().inSingletonScope();
    container.bind(OfficeHours).toSelf();
    container.bind(Desk).toSelf();
    const app = controllers([Desk], { resolve: (C) => container.get(C) });
    expect((await inject(app, { url: "/desk" })).body).toBe("open");
    container.get(Clock).hour = 20;
    expect((await inject(app, { url: "/desk" })).status).toBe(404);
  });

  test("without a resolver a guard class is built with new", async () => {
    class AlwaysNo implements CanActivate {
      canActivate() {
        return false;
      }
    }
    class Closed {
      @Guard(AlwaysNo)
      @Route("GET /")
      index() {
        return "open";
      }
    }
    expect((await inject(controllers([Closed]), { url: "/" })).status).toBe(404);
  });
});

describe("@Guard misuse", () => {
  test("not a function, or no guards at all, fails at once", () => {
    expect(() => Guard("admin" as never)).toThrow("@Guard: argument 1 is string, not a predicate or a guard class");
    expect(() => Guard()).toThrow("@Guard: give at least one predicate or guard class");
  });

  test("a class without canActivate is a startup error", () => {
    class NotAGuard {
      check() {
        return true;
      }
    }
    class Uses {
      @Guard(NotAGuard as never)
      @Route("GET /")
      index() {}
    }
    const e = expectControllerError(() => controllers([Uses]), "NOT_A_GUARD", "Uses", "index");
    expect(e.message).toContain("@Guard(NotAGuard) is a class without canActivate(request)");
  });

  test("a method @Guard on a method without @Route, or on a static method", () => {
    class NoRoute {
      @Route("GET /")
      index() {}
      @Guard(() => true)
      helper() {}
    }
    expectControllerError(() => controllers([NoRoute]), "NOT_A_ROUTE", "NoRoute", "helper");
    const e = errorOf(() => {
      class Static {
        @Guard(() => true)
        static s() {}
      }
      return Static;
    });
    expect(e).toBeInstanceOf(ControllerError);
    expect((e as ControllerError).code).toBe("STATIC_METHOD");
  });
});
