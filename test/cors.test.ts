import { alt, cors, type CorsOptions, HttpError, inject, interpreter, match, route, type Route } from "../src";

/*
 * CORS from the tree (issue 23): a preflight lists exactly the methods the routes inside accept for its
 * path; actual replies carry the origin headers. Requests are shaped as browsers send them.
 */

const api = alt(
  route("GET /users/id:Int", (req) => ({ id: req.vars.id })),
  route("DELETE /users/id:Int", () => undefined),
  route("PUT /users/id:Int", () => undefined),
  route("POST /users", () => {
    throw new HttpError(400, "invalid user", { details: { errors: [{ field: "name" }] } });
  }),
  route("/anything", () => "any method"),
);

const preflight = (url: string, origin: string, method: string, headers?: string) => ({
  method: "OPTIONS",
  url,
  headers: {
    origin,
    "access-control-request-method": method,
    ...(headers === undefined ? {} : { "access-control-request-headers": headers }),
    "sec-fetch-mode": "cors",
  },
});

describe.each([
  ["interpreter", { dispatcher: interpreter }],
  ["compiled", {}],
] as const)("cors (%s)", (_name, pipelineOptions) => {
  const send = (tree: Route, request: Parameters<typeof inject>[1]) => inject(tree, request, pipelineOptions);
  const app = (options: CorsOptions) => match("/api", cors(options, api));

  test("a preflight is answered with exactly the methods the tree accepts for the path", async () => {
    const response = await send(
      app({ origin: "https://app.example" }),
      preflight("/api/users/7", "https://app.example", "DELETE", "Content-Type, X-Requested-With"),
    );
    expect(response.status).toBe(204);
    expect(response.headers["access-control-allow-methods"]).toBe("GET, DELETE, PUT");
    expect(response.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(response.headers["access-control-allow-headers"]).toBe("content-type, x-requested-with");
    expect(response.headers.vary).toBe("Origin, Access-Control-Request-Headers");
    expect(response.body).toBe("");
  });

  test("a path a route takes under any method: the requested method is allowed", async () => {
    const response = await send(app({}), preflight("/api/anything", "https://a.example", "PATCH"));
    expect(response.status).toBe(204);
    expect(response.headers["access-control-allow-methods"]).toBe("PATCH");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
  });

  test("a preflight for a path nothing routes is not answered as a success", async () => {
    const response = await send(app({}), preflight("/api/nothing/here", "https://a.example", "GET"));
    expect(response.status).toBe(404);
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("a preflight for a type the path variable refuses is not routed either", async () => {
    expect((await send(app({}), preflight("/api/users/seven", "https://a.example", "GET"))).status).toBe(404);
  });

  test("a preflight from an origin not allowed: 403, no allow-origin", async () => {
    const response = await send(
      app({ origin: ["https://app.example"] }),
      preflight("/api/users/7", "https://evil.example", "GET"),
    );
    expect(response.status).toBe(403);
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    expect(response.headers.vary).toBe("Origin");
  });

  test("actual requests: the exact origin echoed with Vary, credentials and exposed headers", async () => {
    const tree = app({ origin: /^https:\/\/[a-z]+\.example$/, credentials: true, exposeHeaders: ["X-Total"] });
    const response = await send(tree, { url: "/api/users/7", headers: { origin: "https://app.example" } });
    expect(response.status).toBe(200);
    expect(response.headers["access-control-allow-origin"]).toBe("https://app.example");
    expect(response.headers["access-control-allow-credentials"]).toBe("true");
    expect(response.headers["access-control-expose-headers"]).toBe("X-Total");
    expect(response.headers.vary).toBe("Origin");
    const refused = await send(tree, { url: "/api/users/7", headers: { origin: "https://a.b.example" } });
    expect(refused.status).toBe(200);
    expect(refused.headers["access-control-allow-origin"]).toBeUndefined();
    expect(refused.headers.vary).toBe("Origin");
  });

  test("origin as a predicate sees the origin and the request", async () => {
    const seen: string[] = [];
    const tree = app({
      origin: (origin, req) => {
        seen.push(`${origin} ${req.method}`);
        return origin.endsWith(".trusted");
      },
    });
    const ok = await send(tree, { url: "/api/users/1", headers: { origin: "https://x.trusted" } });
    expect(ok.headers["access-control-allow-origin"]).toBe("https://x.trusted");
    expect(seen).toEqual(["https://x.trusted GET"]);
  });

  test("without an Origin header nothing is added", async () => {
    const response = await send(app({ origin: "https://app.example" }), { url: "/api/users/7" });
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
    expect(response.headers.vary).toBeUndefined();
  });

  test("a client error keeps its JSON body and gets the CORS headers the browser needs to read it", async () => {
    const response = await send(app({ origin: ["https://app.example"] }), {
      method: "POST",
      url: "/api/users",
      headers: { origin: "https://app.example" },
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ errors: [{ field: "name" }], error: "invalid user" });
    expect(response.headers["access-control-allow-origin"]).toBe("https://app.example");
  });

  test("a plain OPTIONS (no Access-Control-Request-Method) is an ordinary request", async () => {
    const response = await send(app({}), {
      method: "OPTIONS",
      url: "/api/anything",
      headers: { origin: "https://a.example" },
    });
    expect(response.body).toBe("any method");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
  });

  test("hostile preflights: a 10 kB method token, 1,000 requested headers, a bad token — clear answers", async () => {
    const long = "X".repeat(10_000);
    const anyMethod = await send(app({}), preflight("/api/anything", "https://a.example", long));
    expect(anyMethod.status).toBe(204);
    const listed = await send(app({}), preflight("/api/users/7", "https://a.example", long));
    expect(listed.headers["access-control-allow-methods"]).toBe("GET, DELETE, PUT");
    const many = Array.from({ length: 1000 }, (_, i) => `X-H${i}`).join(", ");
    const started = performance.now();
    const headers = await send(app({}), preflight("/api/users/7", "https://a.example", "GET", many));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(String(headers.headers["access-control-allow-headers"]).split(", ")).toHaveLength(1000);
    const bad = await send(app({}), preflight("/api/users/7", "https://a.example", "GE T"));
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error).toMatch(/not a method token/);
    const badHeader = await send(app({}), preflight("/api/users/7", "https://a.example", "GET", "ok, bad header"));
    expect(badHeader.status).toBe(400);
  });
});

describe("cors options that cannot work are refused when built", () => {
  test.each<[string, CorsOptions, RegExp]>([
    ["* with credentials", { origin: "*", credentials: true }, /origin "\*" with credentials/],
    ["credentials without origin", { credentials: true }, /origin "\*" with credentials/],
    ["a bad allowHeaders name", { allowHeaders: ["ok", "bad name"] }, /allowHeaders has "bad name"/],
    ["a list with a non-string", { origin: ["https://a", 3 as never] }, /origin lists 3/],
    ["a negative maxAge", { maxAge: -1 }, /maxAge must be a whole number/],
  ])("%s", (_name, options, message) => {
    expect(() => cors(options, api)).toThrow(message);
  });
});
