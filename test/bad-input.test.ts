import fc from "fast-check";
import {
  alt,
  GET,
  inject,
  Int,
  interpret,
  interpreter,
  method,
  path,
  pathEnd,
  pathVar,
  Text,
  toApplication,
  type Route,
} from "../src";
import { bodyOf, rawRequest, startServer, statusOf, type TestServer } from "./helpers/server";
import { inheritance, INHERITS_NOTHING } from "./helpers/vars";

/*
 * Hostile and malformed requests: every one gets an answer, nothing throws, no prototype is polluted.
 */

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
const prototypeKeys = (): string[][] => PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).sort());
const before = prototypeKeys();

function expectNoPollution(): void {
  expect(prototypeKeys()).toEqual(before);
  const probe = {} as Record<string, unknown>;
  for (const key of ["polluted", "x", "isAdmin", "7", "v"]) expect(probe[key]).toBeUndefined();
}

afterAll(() => expectNoPollution());

const errors: unknown[] = [];
const onError = (error: unknown): void => {
  errors.push(error);
};

const tree: Route = alt(
  method(
    GET,
    path(
      "/ok",
      pathEnd(() => "ok"),
    ),
  ),
  path(
    "/id",
    pathVar(
      "id",
      Int,
      pathEnd((request) => ({ id: request.vars.id })),
    ),
  ),
  path(
    "/proto",
    pathVar(
      "__proto__",
      Text,
      pathVar(
        "constructor",
        Text,
        pathVar(
          "prototype",
          Text,
          pathEnd((request) => ({
            inherits: inheritance(request.vars),
            own: Object.keys(request.vars),
            values: Object.values(request.vars),
          })),
        ),
      ),
    ),
  ),
  path(
    "/__proto__/constructor",
    pathEnd(() => "literal proto path"),
  ),
  path("/count", (request) => ({
    segments: request.segments.length,
    rest: request.rest.length,
    pathLength: request.path.length,
  })),
  path(
    "/echo",
    pathVar("value", Text, (request) => ({ value: request.vars.value, segments: request.segments })),
  ),
);

beforeEach(() => {
  errors.length = 0;
});

describe("malformed paths through inject", () => {
  test.each([
    ["/%", 404],
    ["/%zz", 404],
    ["/%FF%FE", 404],
    ["/%00", 404],
    ["/%C0%AF", 404],
    ["/%ED%A0%80", 404], // an encoded lone surrogate
    ["//", 404],
    ["", 404],
    ["?", 404],
    ["no-leading-slash", 404],
    ["*", 404],
  ])("%j answers %p without throwing", async (url, status) => {
    const response = await inject(tree, { url }, { onError });
    expect(response.status).toBe(status);
    expect(errors).toEqual([]);
  });

  test("malformed escapes reach a Text variable as the DESIGN table says", async () => {
    const value = async (raw: string): Promise<unknown> =>
      JSON.parse((await inject(tree, { url: `/echo/${raw}` })).body).value;
    expect(await value("%zz")).toBe("%zz");
    expect(await value("%")).toBe("%");
    expect(await value("%FF%FE")).toBe("\uFFFD\uFFFD");
    expect(await value("a%2Fb")).toBe("a/b");
  });

  test("a 64 KiB path answers (hit and miss)", async () => {
    const long = "a".repeat(64 * 1024);
    expect((await inject(tree, { url: `/${long}` }, { onError })).status).toBe(404);
    const hit = await inject(tree, { url: `/echo/${long}` }, { onError });
    expect(hit.status).toBe(200);
    expect(JSON.parse(hit.body).value).toHaveLength(64 * 1024);
    const escapes = await inject(tree, { url: `/echo/${"%zz".repeat(20000)}` }, { onError });
    expect(JSON.parse(escapes.body).value).toBe("%zz".repeat(20000));
  });

  test("10,000 segments answer (hit and miss)", async () => {
    const many = Array(10000).fill("s").join("/");
    const response = await inject(tree, { url: `/count/${many}` }, { onError });
    expect(JSON.parse(response.body)).toMatchObject({ segments: 10001, rest: 10000 });
    expect((await inject(tree, { url: `/${many}` }, { onError })).status).toBe(404);
    expect((await inject(tree, { url: "/".repeat(10000) }, { onError })).status).toBe(404);
    expect(errors).toEqual([]);
  });

  test("an out-of-range number is a 404, not an error", async () => {
    expect((await inject(tree, { url: `/id/${"9".repeat(5000)}` }, { onError })).status).toBe(404);
    expect(errors).toEqual([]);
  });
});

describe("__proto__ and constructor", () => {
  test.each([
    ["default (compiled)", {}],
    ["interpreter", { dispatcher: interpreter }],
  ] as const)("as labels (%s): vars inherits nothing and has them as plain own keys", async (_name, options) => {
    const response = await inject(tree, { url: "/proto/polluted/x/isAdmin" }, { onError, ...options });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      inherits: INHERITS_NOTHING,
      own: ["__proto__", "constructor", "prototype"],
      values: ["polluted", "x", "isAdmin"],
    });
    expectNoPollution();
  });

  test("as segment values: matched literally and captured as text", async () => {
    expect((await inject(tree, { url: "/__proto__/constructor" })).body).toBe("literal proto path");
    expect(JSON.parse((await inject(tree, { url: "/echo/__proto__" })).body).value).toBe("__proto__");
    expect(JSON.parse((await inject(tree, { url: "/echo/constructor" })).body).value).toBe("constructor");
    expect((await inject(tree, { url: "/__proto__" })).status).toBe(404);
    expect((await inject(tree, { url: "/constructor/prototype" })).status).toBe(404);
    expect((await inject(tree, { url: "/hasOwnProperty" })).status).toBe(404);
    expectNoPollution();
  });

  test.each([
    ["default (compiled)", {}],
    ["interpreter", { dispatcher: interpreter }],
  ] as const)(
    "a label __proto__ with an object value does not set the prototype of vars (%s)",
    async (_name, options) => {
      const ObjectParser = {
        name: "ObjectParser",
        parseUrlPiece: (piece: string) => ({ polluted: piece }),
        toUrlPiece: () => "",
      };
      const seen: object[] = [];
      const t = pathVar("__proto__", ObjectParser, (request) => {
        seen.push(request.vars);
        return "ok";
      });
      expect((await inject(t, { url: "/yes" }, options)).status).toBe(200);
      const vars = seen[0] as Record<string, unknown>;
      expect(inheritance(vars)).toEqual(INHERITS_NOTHING);
      expect(Object.getOwnPropertyDescriptor(vars, "__proto__")?.value).toEqual({ polluted: "yes" });
      expect(vars["polluted"]).toBeUndefined();
      expectNoPollution();
    },
  );

  test.each([
    ["default (compiled)", {}],
    ["interpreter", { dispatcher: interpreter }],
  ] as const)("vars of a route with no pathVar inherits nothing too (%s)", async (_name, options) => {
    const seen: object[] = [];
    await inject(
      alt((request) => {
        seen.push(request.vars);
        return "ok";
      }),
      { url: "/" },
      options,
    );
    expect(inheritance(seen[0]!)).toEqual(INHERITS_NOTHING);
    expect(Object.keys(seen[0]!)).toEqual([]);
  });

  test("query keys named __proto__ are just query keys", async () => {
    const t = alt((request) => ({ proto: request.query.get("__proto__"), all: [...request.query.keys()] }));
    const response = await inject(t, { url: "/?__proto__[polluted]=1&constructor[prototype][x]=2&__proto__=3" });
    expect(JSON.parse(response.body)).toEqual({
      proto: "3",
      all: ["__proto__[polluted]", "constructor[prototype][x]", "__proto__"],
    });
    expectNoPollution();
  });
});

describe("methods", () => {
  test("a lower-case method (inject 'get') is 404 against a GET route, no throw", async () => {
    const response = await inject(tree, { method: "get", url: "/ok" }, { onError });
    expect(response.status).toBe(404);
    expect(await interpret(tree, { method: "get", url: "/ok" })).toBeNull();
    expect(errors).toEqual([]);
  });
  test.each(["", " ", "G\u0000T", "__proto__", "constructor", "GET /ok", "ΓET"])(
    "method %j is 404, no throw",
    async (m) => {
      expect((await inject(tree, { method: m, url: "/ok" }, { onError })).status).toBe(404);
    },
  );
});

describe("any request answers (property)", () => {
  const url = fc.oneof(
    fc.string({
      unit: fc.constantFrom(
        "/",
        "%",
        "z",
        "F",
        "2",
        "f",
        "0",
        "?",
        "&",
        "=",
        "_",
        "p",
        "r",
        "o",
        "t",
        "a",
        "é",
        "\uD800",
      ),
      maxLength: 30,
    }),
    fc
      .array(
        fc.constantFrom("ok", "id", "proto", "echo", "count", "__proto__", "constructor", "%zz", "%", "%FF", "1", ""),
        { maxLength: 6 },
      )
      .map((s) => `/${s.join("/")}`),
    fc.string({ unit: "binary" }),
  );
  const methodName = fc.oneof(fc.constantFrom("GET", "get", "POST", "HEAD", "__proto__"), fc.string({ maxLength: 8 }));
  test("inject never rejects, answers 200 or 404, pollutes nothing, and both dispatchers agree", async () => {
    await fc.assert(
      fc.asyncProperty(methodName, url, async (m, u) => {
        const compiled = await inject(tree, { method: m, url: u }, { onError });
        const reference = await inject(tree, { method: m, url: u }, { onError, dispatcher: interpreter });
        expect([200, 404]).toContain(compiled.status);
        expect(compiled).toEqual(reference);
      }),
      { numRuns: 300 },
    );
    expect(errors).toEqual([]);
    expectNoPollution();
  });
});

describe("bad input over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(toApplication(tree, { onError }));
  });
  afterAll(async () => {
    await server.close();
  });

  const send = (target: string, m = "GET"): Promise<string> =>
    rawRequest(server.port, `${m} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  const stillServing = async (): Promise<void> => {
    const response = await fetch(`${server.url}/ok`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
    expect(errors).toEqual([]);
  };

  test.each(["/%", "/%zz", "/%FF%FE", "/%00", "/__proto__", "/constructor/prototype"])(
    "GET %s over a raw socket is 404; the server keeps serving",
    async (target) => {
      const raw = await send(target);
      expect(statusOf(raw)).toBe(404);
      expect(bodyOf(raw)).toBe("");
      await stillServing();
    },
  );

  test("malformed escapes reach a handler over HTTP as the DESIGN table says", async () => {
    const raw = await send("/echo/%zz%FF");
    expect(statusOf(raw)).toBe(200);
    expect(JSON.parse(Buffer.from(bodyOf(raw), "latin1").toString("utf8")).value).toBe("%zz\uFFFD");
  });

  test("__proto__ labels over HTTP: vars inherit nothing, nothing polluted", async () => {
    const response = await fetch(`${server.url}/proto/polluted/x/isAdmin`);
    expect(await response.json()).toEqual({
      inherits: INHERITS_NOTHING,
      own: ["__proto__", "constructor", "prototype"],
      values: ["polluted", "x", "isAdmin"],
    });
    expectNoPollution();
  });

  test("a lower-case method over a raw socket: answered (node refuses it or it is a 404), the server survives", async () => {
    const status = statusOf(await send("/ok", "get"));
    expect([400, 404]).toContain(status);
    await stillServing();
  });

  // node answers a target past its header limit (16 KiB by default) with 431 itself, before any
  // routing: the default server shows that; a server started with a larger limit shows the routing
  const longPath = `/${"a".repeat(64 * 1024)}`;
  const manySegments = `/count/${Array(10000).fill("s").join("/")}`;

  test("a 64 KiB path past node's default header limit: 431 from node itself; the server survives", async () => {
    expect(statusOf(await send(longPath))).toBe(431);
    await stillServing();
  });

  test("10,000 segments past node's default header limit: 431 from node itself; the server survives", async () => {
    expect(statusOf(await send(manySegments))).toBe(431);
    await stillServing();
  });

  describe("with a header limit the long targets fit in (maxHeaderSize 256 KiB)", () => {
    let roomy: TestServer;
    beforeAll(async () => {
      roomy = await startServer(toApplication(tree, { onError }), { maxHeaderSize: 256 * 1024 });
    });
    afterAll(async () => {
      await roomy.close();
    });
    const sendRoomy = (target: string): Promise<string> =>
      rawRequest(roomy.port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);

    test("a 64 KiB path is routed: a miss is a 404, a hit answers with the whole segment", async () => {
      const miss = await sendRoomy(longPath);
      expect(statusOf(miss)).toBe(404);
      expect(bodyOf(miss)).toBe("");
      const hit = await sendRoomy(`/echo${longPath}`);
      expect(statusOf(hit)).toBe(200);
      expect((JSON.parse(bodyOf(hit)) as { value: string }).value.length).toBe(64 * 1024);
      expect(errors).toEqual([]);
    });

    test("10,000 segments are routed: the handler sees every one of them", async () => {
      const raw = await sendRoomy(manySegments);
      expect(statusOf(raw)).toBe(200);
      expect(JSON.parse(bodyOf(raw))).toEqual({ segments: 10001, rest: 10000, pathLength: manySegments.length });
      expect(errors).toEqual([]);
      await stillServing();
    });
  });

  test("a path just under node's header limit with many segments is routed", async () => {
    const raw = await send(`/count/${Array(2000).fill("s").join("/")}`);
    expect(statusOf(raw)).toBe(200);
    expect(JSON.parse(bodyOf(raw))).toMatchObject({ segments: 2001, rest: 2000 });
  });

  test("an absolute-form target is routed by its path", async () => {
    const raw = await send("http://127.0.0.1/ok?x=1");
    expect(statusOf(raw)).toBe(200);
    expect(bodyOf(raw)).toBe("ok");
  });

  test("OPTIONS * is a 404, not an error", async () => {
    expect(statusOf(await send("*", "OPTIONS"))).toBe(404);
    await stillServing();
  });

  test("raw non-ASCII bytes in the target: answered, the server survives", async () => {
    const raw = await rawRequest(
      server.port,
      Buffer.concat([
        Buffer.from("GET /echo/"),
        Buffer.from([0xff, 0xfe, 0xc3, 0xa9]),
        Buffer.from(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
      ]),
    );
    expect([200, 400]).toContain(statusOf(raw));
    await stillServing();
  });
});
