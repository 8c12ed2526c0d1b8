import {
  alt,
  forbidden,
  guard,
  HttpError,
  inject,
  interpreter,
  match,
  refuse,
  route,
  routeMismatch,
  unauthorized,
  type DispatcherFactory,
  type RoutedRequest,
} from "../src";
import { controllers, Guard, Route, type CanActivate } from "../decorators";

/*
 * Guards keep the spec's fall-through (false: the next route is tried) and can answer instead: a guard
 * that throws an HttpError — refuse(unauthorized(…)), refuse(forbidden(…)), or `throw` in a guard class —
 * ends the request with that error's status, headers and JSON body, whatever routes come after, on
 * every dispatcher.
 */

const dispatchers: [string, DispatcherFactory | undefined][] = [
  ["compiled", undefined],
  ["interpreter", interpreter],
];

const token = (req: RoutedRequest<object>) => req.headers.get("authorization");
const signedIn = (req: RoutedRequest<object>) => token(req) !== null;
const isAdmin = (req: RoutedRequest<object>) => token(req) === "Bearer admin";

describe("unauthorized, forbidden, refuse", () => {
  test("unauthorized(): a 401 HttpError with WWW-Authenticate (Bearer unless given)", () => {
    const plain = unauthorized();
    expect(plain).toBeInstanceOf(HttpError);
    expect([plain.status, plain.message, plain.headers, plain.expose]).toEqual([
      401,
      "Unauthorized",
      { "www-authenticate": "Bearer" },
      true,
    ]);
    const custom = unauthorized('Basic realm="admin", charset="UTF-8"', "log in first");
    expect([custom.message, custom.headers]).toEqual([
      "log in first",
      { "www-authenticate": 'Basic realm="admin", charset="UTF-8"' },
    ]);
  });

  test("unauthorized() needs a challenge: an empty one is a TypeError", () => {
    expect(() => unauthorized("")).toThrow(TypeError);
    expect(() => unauthorized("  ")).toThrow("the challenge (WWW-Authenticate) must be a non-empty string");
  });

  test("forbidden(): a 403 HttpError", () => {
    expect([forbidden().status, forbidden().message, forbidden("admins only").message]).toEqual([
      403,
      "Forbidden",
      "admins only",
    ]);
  });

  test("refuse(error) throws it; anything but an HttpError is a TypeError", () => {
    const error = forbidden();
    expect(() => refuse(error)).toThrow(error);
    expect(() => refuse(new Error("x") as HttpError)).toThrow(
      new TypeError("refuse: give an HttpError (e.g. unauthorized() or forbidden())"),
    );
  });
});

describe.each(dispatchers)("functional guards (%s)", (_name, dispatcher) => {
  const app = alt(
    // refuses with 401: the route below it is never tried for a request without a token
    match(
      "/api",
      guard(
        (req) => signedIn(req) || refuse(unauthorized('Bearer realm="api"')),
        alt(
          route(
            "GET /admin",
            guard(
              (req) => isAdmin(req) || refuse(forbidden("admins only")),
              () => "admin area",
            ),
          ),
          route("GET /me", (req) => ({ token: token(req) })),
        ),
      ),
    ),
    route("GET /api/me", () => "a later route: never reached without a token"),
    // below its route's pattern, a guard refuses only the requests of that route
    // an asynchronous guard that refuses
    route(
      "GET /async",
      guard(
        async (req) => (await Promise.resolve(signedIn(req))) || refuse(unauthorized()),
        () => "async ok",
      ),
    ),
    // a guard that throws by itself
    route(
      "GET /limited",
      guard(
        () => {
          throw new HttpError(429, "slow down", { headers: { "retry-after": "7" } });
        },
        () => "never",
      ),
    ),
    // the spec's fall-through: false tries the next route
    route(
      "GET /dashboard",
      guard(isAdmin, () => "admin dashboard"),
    ),
    route("GET /dashboard", () => "public dashboard"),
    // a mismatch first, then a refusing guard
    route("GET /after-mismatch", () => routeMismatch()),
    route(
      "GET /after-mismatch",
      guard(
        () => refuse(forbidden("no")),
        () => "never",
      ),
    ),
    // a guard that throws something that is no HttpError: a 500
    route(
      "GET /wrong",
      guard(
        () => refuse(new Error("not an HttpError") as HttpError),
        () => "never",
      ),
    ),
    // above the routes, a refusing guard answers every request that reaches it, whatever its path
    match(
      "/private",
      guard(
        (req) => signedIn(req) || refuse(unauthorized()),
        route("GET /page", () => "private page"),
      ),
    ),
  );

  const get = async (url: string, authorization?: string) => {
    const response = await inject(
      app,
      { url, headers: authorization === undefined ? {} : { authorization } },
      { dispatcher, onError: () => undefined },
    );
    return {
      status: response.status,
      challenge: response.headers["www-authenticate"],
      body: response.headers["content-type"]?.includes("json") ? JSON.parse(response.body) : response.body,
    };
  };

  test("401 with WWW-Authenticate and a JSON body; later routes for the same path are not tried", async () => {
    expect(await get("/api/me")).toEqual({
      status: 401,
      challenge: 'Bearer realm="api"',
      body: { error: "Unauthorized" },
    });
    expect(await get("/api/me", "Bearer ada")).toEqual({
      status: 200,
      challenge: undefined,
      body: { token: "Bearer ada" },
    });
  });

  test("403 from a nested guard, after the outer one passed", async () => {
    expect(await get("/api/admin", "Bearer ada")).toEqual({
      status: 403,
      challenge: undefined,
      body: { error: "admins only" },
    });
    expect(await get("/api/admin", "Bearer admin")).toMatchObject({ status: 200, body: "admin area" });
    // the outer guard answers first
    expect(await get("/api/admin")).toMatchObject({ status: 401 });
  });

  test("a guard refuses the requests that reach it: under its prefix every path, elsewhere none", async () => {
    expect(await get("/api/nothing-here")).toMatchObject({ status: 401 });
    expect(await get("/private/nothing-here")).toMatchObject({ status: 401 });
    expect(await get("/private/nothing-here", "Bearer x")).toMatchObject({ status: 404 });
    expect(await get("/private/page", "Bearer x")).toMatchObject({ status: 200, body: "private page" });
    expect(await get("/elsewhere")).toMatchObject({ status: 404 });
  });

  test("an asynchronous guard refuses the same way", async () => {
    expect(await get("/async")).toEqual({ status: 401, challenge: "Bearer", body: { error: "Unauthorized" } });
    expect(await get("/async", "Bearer x")).toMatchObject({ status: 200, body: "async ok" });
  });

  test("any HttpError a guard throws answers with its status and headers", async () => {
    const response = await inject(app, { url: "/limited" }, { dispatcher });
    expect([response.status, response.headers["retry-after"], JSON.parse(response.body)]).toEqual([
      429,
      "7",
      { error: "slow down" },
    ]);
  });

  test("false still falls through to the next route (the spec's rule)", async () => {
    expect(await get("/dashboard")).toMatchObject({ status: 200, body: "public dashboard" });
    expect(await get("/dashboard", "Bearer admin")).toMatchObject({ status: 200, body: "admin dashboard" });
  });

  test("after an earlier route's mismatch, a refusing guard still answers", async () => {
    expect(await get("/after-mismatch")).toEqual({ status: 403, challenge: undefined, body: { error: "no" } });
  });

  test("refuse() with something that is no HttpError: a 500", async () => {
    expect(await get("/wrong")).toMatchObject({ status: 500 });
  });
});

describe.each(dispatchers)("@Guard (%s)", (_name, dispatcher) => {
  class AdminGuard implements CanActivate {
    canActivate(request: RoutedRequest<object>): boolean {
      if (!signedIn(request)) throw unauthorized('Bearer realm="admin"');
      return isAdmin(request);
    }
  }

  @Guard((req: RoutedRequest<object>) => signedIn(req) || refuse(unauthorized()))
  class Account {
    @Route("GET /account")
    show() {
      return "account";
    }

    @Route("GET /account/admin")
    @Guard(AdminGuard)
    admin() {
      return "account admin";
    }

    @Route("GET /account/delete")
    @Guard((req: RoutedRequest<object>) => isAdmin(req) || refuse(forbidden("only admins delete")))
    remove() {
      return "deleted";
    }
  }

  class Fallback {
    @Route("GET /account/admin")
    notAdmin() {
      return "not an admin: the guard class said false, so this route answers";
    }
  }

  const app = controllers([Account, Fallback]);
  const get = async (url: string, authorization?: string) => {
    const response = await inject(
      app,
      { url, headers: authorization === undefined ? {} : { authorization } },
      { dispatcher },
    );
    return { status: response.status, challenge: response.headers["www-authenticate"], body: response.body };
  };

  test("a class guard's refuse(unauthorized()): 401 for every route of the class", async () => {
    expect(await get("/account")).toEqual({ status: 401, challenge: "Bearer", body: '{"error":"Unauthorized"}' });
    expect(await get("/account", "Bearer ada")).toEqual({ status: 200, challenge: undefined, body: "account" });
  });

  test("a method guard's refuse(forbidden()): 403", async () => {
    expect(await get("/account/delete", "Bearer ada")).toEqual({
      status: 403,
      challenge: undefined,
      body: '{"error":"only admins delete"}',
    });
    expect((await get("/account/delete", "Bearer admin")).body).toBe("deleted");
  });

  test("a guard class that throws answers; one that returns false falls through", async () => {
    // the class-level predicate passes (a token), the guard class returns false: the next route answers
    expect((await get("/account/admin", "Bearer ada")).body).toBe(
      "not an admin: the guard class said false, so this route answers",
    );
    expect((await get("/account/admin", "Bearer admin")).body).toBe("account admin");
  });

  test("the guards run in order: the class's first, so its 401 comes before the guard class's", async () => {
    expect(await get("/account/admin")).toEqual({ status: 401, challenge: "Bearer", body: '{"error":"Unauthorized"}' });
  });
});
