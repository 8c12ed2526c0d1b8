import "reflect-metadata";
import { container as rootContainer, injectable } from "tsyringe";
import {
  alt,
  guard,
  HttpError,
  inject,
  interpreter,
  json,
  type Middleware,
  match,
  type NextRoutes,
  type RoutedRequest,
  route,
  use,
} from "../src";
import { controllers, Guard, type Interceptor, Match, PathVar, Route, Use } from "../decorators";
import { errorOf, expectControllerError, shape } from "./helpers/decorators";

/*
 * @Use on a class or a method builds the tree's `use` nodes: a class's middlewares around its routes
 * (inside its @Match prefix), a method's inside its route and outside its guards.
 */

/** A middleware that logs `name` on the way in and the status on the way out. */
function logging(name: string, log: string[]): Middleware {
  const middleware: Middleware = async (_req, next) => {
    log.push(`${name} in`);
    const reply = await next();
    log.push(`${name} out ${reply?.status ?? "null"}`);
    return reply;
  };
  return middleware;
}

describe("@Use builds the functional use nodes", () => {
  const a: Middleware = (_req, next) => next();
  const b: Middleware = (_req, next) => next();
  const c: Middleware = (_req, next) => next();
  const isAdmin = () => true;

  test("class middlewares around the class's routes inside @Match; method middlewares outside its guards", () => {
    @Use(a, b)
    @Match("/admin")
    class Admin {
      @Route("GET /stats")
      stats() {}

      @Use(c)
      @Guard(isAdmin)
      @Route("DELETE /id:Int")
      remove(@PathVar("id") _id: number) {}
    }
    const handler = () => null;
    const functional = match(
      "/admin",
      use(a, use(b, alt(route("GET /stats", handler), route("DELETE /id:Int", use(c, guard(isAdmin, handler)))))),
    );
    expect(shape(controllers([Admin]))).toEqual(shape(functional));
  });

  test("@Use(a, b) is @Use(a) @Use(b), and a class without @Match is wrapped whole", () => {
    @Use(a, b)
    class One {
      @Route("GET /")
      index() {}
    }
    @Use(a)
    @Use(b)
    class Two {
      @Route("GET /")
      index() {}
    }
    expect(shape(controllers([One]))).toEqual(shape(controllers([Two])));
    expect(shape(controllers([One]))).toEqual(
      shape(
        use(
          a,
          use(
            b,
            route("GET /", () => null),
          ),
        ),
      ),
    );
  });
});

describe("@Use at run time", () => {
  test("order: a base class's, the class's, then the method's, each as written; guards inside", async () => {
    const log: string[] = [];
    @Use(logging("base", log))
    class Base {}
    @Use(logging("class", log))
    @Match("/t")
    class Tested extends Base {
      @Use(logging("method 1", log), logging("method 2", log))
      @Guard(() => {
        log.push("guard");
        return true;
      })
      @Route("GET /")
      index() {
        log.push("handler");
        return "ok";
      }
    }
    for (const dispatcher of [interpreter, undefined]) {
      log.length = 0;
      const response = await inject(controllers([Tested]), { url: "/t" }, dispatcher ? { dispatcher } : {});
      expect(response.body).toBe("ok");
      expect(log).toEqual([
        "base in",
        "class in",
        "method 1 in",
        "method 2 in",
        "guard",
        "handler",
        "method 2 out 200",
        "method 1 out 200",
        "class out 200",
        "base out 200",
      ]);
    }
  });

  test("a middleware sees a refused guard as null and can map a guard's HttpError", async () => {
    const seen: unknown[] = [];
    const mapErrors: Middleware = async (_req, next) => {
      try {
        const reply = await next();
        seen.push(reply?.status ?? null);
        return reply;
      } catch (error) {
        seen.push((error as HttpError).status);
        return json({ problem: (error as Error).message }, { status: (error as HttpError).status });
      }
    };
    @Use(mapErrors)
    class Guarded {
      @Guard(() => false)
      @Route("GET /refused")
      refused() {
        return "never";
      }

      @Guard(() => {
        throw new HttpError(403, "not yours", { expose: true });
      })
      @Route("GET /forbidden")
      forbidden() {
        return "never";
      }
    }
    const tree = controllers([Guarded]);
    expect((await inject(tree, { url: "/refused" })).status).toBe(404);
    const forbidden = await inject(tree, { url: "/forbidden" });
    expect(forbidden.status).toBe(403);
    expect(JSON.parse(forbidden.body)).toEqual({ problem: "not yours" });
    expect(seen).toEqual([null, 403]);
  });

  test("a middleware class comes from the resolver (tsyringe), with its injected service, once per app", async () => {
    @injectable()
    class RequestLog {
      readonly lines: string[] = [];
    }
    @injectable()
    class Logger implements Interceptor {
      constructor(private readonly log: RequestLog) {}
      async intercept(request: RoutedRequest, next: NextRoutes) {
        const reply = await next();
        this.log.lines.push(`${request.method} ${request.route?.pattern} ${reply?.status}`);
        return reply;
      }
    }
    @Use(Logger)
    @Match("/users")
    class Users {
      @Route("GET /id:Int")
      byId(@PathVar("id") id: number) {
        return { id };
      }
    }
    const container = rootContainer.createChildContainer();
    container.registerSingleton(RequestLog);
    const resolved: unknown[] = [];
    const tree = controllers([Users], { resolve: (C) => (resolved.push(C), container.resolve(C)) });
    await inject(tree, { url: "/users/7" });
    await inject(tree, { url: "/users/8" });
    expect(container.resolve(RequestLog).lines).toEqual(["GET GET /users/id:Int 200", "GET GET /users/id:Int 200"]);
    expect(resolved.filter((C) => C === Logger)).toHaveLength(1);
  });

  test("request scope: the middleware class is resolved per request, with the request", async () => {
    class Counter {
      static made = 0;
      readonly n = ++Counter.made;
      intercept(_request: RoutedRequest, next: NextRoutes) {
        return next().then((reply) => (reply === null ? null : { ...reply, headers: { "x-n": String(this.n) } }));
      }
    }
    class Plain {
      @Use(Counter)
      @Route("GET /")
      index() {
        return "x";
      }
    }
    const requests: unknown[] = [];
    const tree = controllers([Plain], {
      scope: "request",
      resolve: (C, request) => {
        requests.push(request.url);
        return new C();
      },
    });
    expect((await inject(tree, { url: "/" })).headers["x-n"]).toBe("1");
    expect((await inject(tree, { url: "/" })).headers["x-n"]).toBe("2");
  });
});

describe("@Use misuse is a clear error", () => {
  test("no arguments, or an argument that is not a function", () => {
    expect(() => Use()).toThrow("@Use: give at least one middleware or middleware class");
    expect(() => Use("logger" as never)).toThrow("@Use: argument 1 is string, not a middleware function or class");
    expect(() => Use(null as never)).toThrow("@Use: argument 1 is null, not a middleware function or class");
  });

  test("a class without intercept, on a method and on a class", () => {
    class NotAMiddleware {
      handle() {}
    }
    class OnMethod {
      @Use(NotAMiddleware as never)
      @Route("GET /")
      index() {}
    }
    const e = expectControllerError(() => controllers([OnMethod]), "NOT_A_MIDDLEWARE", "OnMethod", "index");
    expect(e.message).toBe(
      "OnMethod.index: @Use(NotAMiddleware) is a class without intercept(request, next); a middleware is a middleware (request, next) => result or a class with intercept",
    );
    @Use(NotAMiddleware as never)
    class OnClass {
      @Route("GET /")
      index() {}
    }
    expectControllerError(() => controllers([OnClass]), "NOT_A_MIDDLEWARE", "OnClass");
  });

  test("@Use on a method that has no @Route", () => {
    class Stray {
      @Route("GET /")
      index() {}
      @Use((_req, next) => next())
      helper() {}
    }
    const error = errorOf(() => controllers([Stray]));
    expect(String(error)).toContain("@Use");
    expect(String(error)).toContain("helper");
  });
});
