import {
  alt,
  cookie,
  cookieParam,
  deleteCookie,
  inject,
  Int,
  interpreter,
  isSetCookie,
  json,
  parseCookies,
  readParams,
  reply,
  route,
  text,
  UUID,
  withCookies,
  type CookieOptions,
  type DispatcherFactory,
  type InjectRequest,
} from "../src";
import { Newtype } from "../decorators";

/*
 * Cookies: the Cookie header read leniently (RFC 6265 §5.4) into req.cookies; values read with the path
 * parsers through cookieParam (a bad or missing one is the same 400 as a query parameter's); cookies set
 * and deleted through a reply's `cookies`, every attribute written, and every name, value or attribute
 * that would break the header (or that browsers drop) refused when the cookie is built.
 */

const entries = (header: string | null | undefined) => [...parseCookies(header)];

describe("parseCookies: the Cookie header, leniently", () => {
  test("pairs split on ';', trimmed, split at the first '='", () => {
    expect(entries("a=1; b=2;c=3 ;  d = 4 ")).toEqual([
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
      ["d", "4"],
    ]);
    expect(entries("token=a=b==; x=")).toEqual([
      ["token", "a=b=="],
      ["x", ""],
    ]);
    expect(entries("\ta=1;\tb=2\t")).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  test("a pair without '=' and a pair with an empty name are ignored", () => {
    expect(entries("lonely; a=1; =nameless; ;;  ; b=2; flag")).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
  });

  test("duplicate names: the first wins (the user agent sends the most specific path first)", () => {
    expect(entries("sid=specific; sid=general; other=1; sid=third")).toEqual([
      ["sid", "specific"],
      ["other", "1"],
    ]);
  });

  test("a value in double quotes is read without them; a lone quote stays", () => {
    expect(entries('a="quoted"; b="; c=""; d="x; e=x"')).toEqual([
      ["a", "quoted"],
      ["b", '"'],
      ["c", ""],
      ["d", '"x'],
      ["e", 'x"'],
    ]);
  });

  test("no percent-decoding: values are read exactly as sent", () => {
    expect(entries("a=caf%C3%A9; b=%zz; c=1+2; d=%2F")).toEqual([
      ["a", "caf%C3%A9"],
      ["b", "%zz"],
      ["c", "1+2"],
      ["d", "%2F"],
    ]);
  });

  test("names are case-sensitive", () => {
    expect(entries("Sid=1; sid=2")).toEqual([
      ["Sid", "1"],
      ["sid", "2"],
    ]);
  });

  test("no header, an empty one", () => {
    expect(entries(null)).toEqual([]);
    expect(entries(undefined)).toEqual([]);
    expect(entries("")).toEqual([]);
    expect(entries(" ; ")).toEqual([]);
  });

  test("__proto__, constructor and prototype are only names: nothing is polluted or inherited", () => {
    const cookies = parseCookies("__proto__=x; constructor=y; prototype=z; toString=w; hasOwnProperty=v");
    expect(cookies.get("__proto__")).toBe("x");
    expect(cookies.get("constructor")).toBe("y");
    expect(cookies.get("prototype")).toBe("z");
    expect(cookies.get("toString")).toBe("w");
    expect(cookies.get("valueOf")).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(Object.prototype).not.toHaveProperty("x");
  });
});

const dispatchers: [string, DispatcherFactory | undefined][] = [
  ["compiled", undefined],
  ["interpreter", interpreter],
];

class SessionId extends Newtype(UUID) {}

const reading = alt(
  route("GET /all", (req) => Object.fromEntries(req.cookies)),
  route("GET /page", (req) => ({ page: cookieParam(req, "page", Int) })),
  route("GET /text", (req) => ({ theme: cookieParam(req, "theme") })),
  route("GET /optional", (req) => ({ page: cookieParam(req, "page", Int, { optional: true }) ?? null })),
  route("GET /session", (req) => {
    const sid = cookieParam(req, "sid", SessionId);
    return { sid: sid.value, isSessionId: sid instanceof SessionId };
  }),
  route("GET /both", (req) => {
    const [page, q] = readParams(req, [(r) => cookieParam(r, "page", Int), (r) => cookieParam(r, "q", Int)]);
    return { page, q };
  }),
);

describe.each(dispatchers)("reading cookies (%s)", (_name, dispatcher) => {
  const get = async (url: string, cookieHeader?: string) => {
    const request: InjectRequest = { url, headers: cookieHeader === undefined ? {} : { cookie: cookieHeader } };
    const response = await inject(reading, request, { dispatcher });
    return { status: response.status, body: JSON.parse(response.body) as unknown };
  };

  test("req.cookies: every cookie of the request, by name", async () => {
    expect(await get("/all", 'a=1; b="two"; a=ignored')).toEqual({ status: 200, body: { a: "1", b: "two" } });
    expect(await get("/all")).toEqual({ status: 200, body: {} });
  });

  test("a cookie read with a parser: Int, Text, a newtype", async () => {
    expect(await get("/page", "page=42")).toEqual({ status: 200, body: { page: 42 } });
    expect(await get("/page", "page=-07")).toEqual({ status: 200, body: { page: -7 } });
    expect(await get("/text", "theme=dark")).toEqual({ status: 200, body: { theme: "dark" } });
    expect(await get("/session", "sid=0F8FAD5B-D9CB-469F-A165-70867728950E")).toEqual({
      status: 200,
      body: { sid: "0f8fad5b-d9cb-469f-a165-70867728950e", isSessionId: true },
    });
  });

  test("a malformed value: 400 naming the cookie and the type, the same shape as a query parameter's", async () => {
    expect(await get("/page", "page=5.0")).toEqual({
      status: 400,
      body: {
        error: 'the cookie "page" is not a valid Int',
        errors: [{ in: "cookie", field: "page", constraint: "Int", message: '"5.0" is not a valid Int' }],
      },
    });
    expect((await get("/session", "sid=nope")).status).toBe(400);
  });

  test("a missing required cookie: 400 naming it", async () => {
    expect(await get("/page", "other=1")).toEqual({
      status: 400,
      body: {
        error: 'the cookie "page" is required',
        errors: [
          { in: "cookie", field: "page", constraint: "required", message: 'the cookie "page" is required (Int)' },
        ],
      },
    });
  });

  test("an optional cookie: undefined when missing, still a 400 when malformed", async () => {
    expect(await get("/optional")).toEqual({ status: 200, body: { page: null } });
    expect(await get("/optional", "page=3")).toEqual({ status: 200, body: { page: 3 } });
    expect((await get("/optional", "page=x")).status).toBe(400);
  });

  test("several failing cookies are answered in one 400", async () => {
    const { status, body } = await get("/both", "page=x");
    expect(status).toBe(400);
    expect((body as { errors: { field: string; constraint: string }[] }).errors).toEqual([
      expect.objectContaining({ in: "cookie", field: "page", constraint: "Int" }),
      expect.objectContaining({ in: "cookie", field: "q", constraint: "required" }),
    ]);
  });

  test("the first of duplicate names is the one read", async () => {
    expect(await get("/page", "page=1; page=2")).toEqual({ status: 200, body: { page: 1 } });
  });
});

const DOMAIN = " is not a host name (letters, digits, '-' and dots)";
const PATH = " must start with '/' and hold only printable ASCII but ';' and ','";

describe("cookie(): building a Set-Cookie value", () => {
  test("name=value alone, and every attribute in a fixed order", () => {
    expect(cookie("theme", "dark").header).toBe("theme=dark");
    const all: CookieOptions = {
      domain: "example.com",
      path: "/app",
      expires: new Date(Date.UTC(2030, 0, 2, 3, 4, 5)),
      maxAge: 3600,
      secure: true,
      httpOnly: true,
      sameSite: "None",
      partitioned: true,
      priority: "High",
    };
    expect(cookie("sid", "abc", all).header).toBe(
      "sid=abc; Domain=example.com; Path=/app; Expires=Wed, 02 Jan 2030 03:04:05 GMT; Max-Age=3600; Secure; HttpOnly; SameSite=None; Partitioned; Priority=High",
    );
    expect(cookie("a", "1", { sameSite: "Strict" }).header).toBe("a=1; SameSite=Strict");
    expect(cookie("a", "1", { sameSite: "Lax", priority: "Low" }).header).toBe("a=1; SameSite=Lax; Priority=Low");
    expect(cookie("a", "1", { domain: ".sub.example.com", path: "/" }).header).toBe(
      "a=1; Domain=.sub.example.com; Path=/",
    );
    expect(cookie("a", "1", { maxAge: 0 }).header).toBe("a=1; Max-Age=0");
    expect(cookie("a", "1", { maxAge: -1 }).header).toBe("a=1; Max-Age=-1");
    expect(cookie("a", "1", { secure: false, httpOnly: false, partitioned: false }).header).toBe("a=1");
  });

  test("the cookie object: name, value, header, frozen, recognised", () => {
    const c = cookie("a", "1", { path: "/" });
    expect([c.name, c.value, String(c)]).toEqual(["a", "1", "a=1; Path=/"]);
    expect(Object.isFrozen(c)).toBe(true);
    expect(isSetCookie(c)).toBe(true);
    expect(isSetCookie({ name: "a", value: "1", header: "a=1" })).toBe(false);
  });

  test("every value of RFC 6265's cookie-octet set, and an empty value, are allowed", () => {
    const octets = "!#$%&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";
    expect(cookie("a", octets).header).toBe(`a=${octets}`);
    expect(cookie("a", "").header).toBe("a=");
  });

  test.each([
    ["", "the name is empty"],
    ["a b", "the name has a space"],
    ["a;b", "the name has ';'"],
    ["a=b", "the name has '='"],
    ["a,b", "the name has ','"],
    ["a\r\nb", "the name has a control character (U+000D)"],
    ["a\u0000", "the name has a control character (U+0000)"],
    ["(a)", "the name has '('"],
    ['"a"', "the name has '\"'"],
    ["café", "the name has a non-ASCII character (U+00E9)"],
  ])("a name that is no token (%j): a TypeError naming the cookie", (name, problem) => {
    expect(() => cookie(name, "v")).toThrow(
      new TypeError(
        `cookie ${JSON.stringify(name)}: ${problem}${problem === "the name is empty" ? "" : ", which an RFC 6265 cookie name (a token) cannot hold"}`,
      ),
    );
  });

  test.each([
    ["a b", "a space"],
    ["a;b", "';'"],
    ["a,b", "','"],
    ['"a"', "'\"'"],
    ["a\\b", "'\\'"],
    ["a\rb", "a control character (U+000D)"],
    ["a\nSet-Cookie: x=1", "a control character (U+000A)"],
    ["a\tb", "a control character (U+0009)"],
    ["\u007f", "a control character (U+007F)"],
    ["é", "a non-ASCII character (U+00E9)"],
    ["😀", "a non-ASCII character (U+1F600)"],
  ])("a value that would break the header (%j): a TypeError naming the cookie", (value, what) => {
    expect(() => cookie("sid", value)).toThrow(TypeError);
    expect(() => cookie("sid", value)).toThrow(`cookie "sid": the value has ${what}`);
  });

  test("a value that is not a string, a name that is not a string", () => {
    expect(() => cookie("sid", 7 as unknown as string)).toThrow(
      new TypeError('cookie "sid": the value must be a string, got number'),
    );
    expect(() => cookie(undefined as unknown as string, "v")).toThrow(TypeError);
  });

  test("name and value over 4,096 bytes: refused (browsers ignore such a cookie)", () => {
    expect(cookie("a", "x".repeat(4095)).value).toHaveLength(4095);
    expect(() => cookie("a", "x".repeat(4096))).toThrow(
      'cookie "a": name and value are 4097 bytes; browsers ignore a cookie over 4096',
    );
  });

  test.each<[string, CookieOptions, string]>([
    ["a domain with a ';'", { domain: "example.com; Secure" }, `the domain "example.com; Secure"${DOMAIN}`],
    ["a domain with a line break", { domain: "example.com\r\nX: y" }, `the domain "example.com\\r\\nX: y"${DOMAIN}`],
    ["a domain with a port", { domain: "example.com:8080" }, `the domain "example.com:8080"${DOMAIN}`],
    ["an empty domain", { domain: "" }, `the domain ""${DOMAIN}`],
    ["a domain with an empty label", { domain: "example..com" }, `the domain "example..com"${DOMAIN}`],
    ["a path without '/'", { path: "app" }, `the path "app"${PATH}`],
    ["a path with ';'", { path: "/a; Domain=evil.com" }, `the path "/a; Domain=evil.com"${PATH}`],
    ["a path with ','", { path: "/a,b" }, `the path "/a,b"${PATH}`],
    ["a path with a line break", { path: "/a\nb" }, `the path "/a\\nb"${PATH}`],
    ["a path with a non-ASCII character", { path: "/café" }, `the path "/café"${PATH}`],
    ["an invalid Date", { expires: new Date(Number.NaN) }, "expires must be a valid Date, got Invalid Date"],
    ["expires that is no Date", { expires: "tomorrow" as unknown as Date }, "expires must be a valid Date"],
    ["a fractional maxAge", { maxAge: 1.5 }, "maxAge must be an integer number of seconds, got 1.5"],
    ["an infinite maxAge", { maxAge: Number.POSITIVE_INFINITY }, "maxAge must be an integer"],
    [
      "a sameSite in the wrong case",
      { sameSite: "lax" as "Lax" },
      'sameSite must be "Strict", "Lax" or "None", got "lax"',
    ],
    ["an unknown priority", { priority: "Urgent" as "High" }, 'priority must be "Low", "Medium" or "High"'],
    ["SameSite=None without Secure", { sameSite: "None" }, 'sameSite "None" needs secure: true'],
    ["SameSite=None with secure: false", { sameSite: "None", secure: false }, 'sameSite "None" needs secure: true'],
    ["Partitioned without Secure", { partitioned: true }, "partitioned needs secure: true"],
  ])("%s: a TypeError naming the cookie and the problem", (_what, options, message) => {
    expect(() => cookie("sid", "v", options)).toThrow(TypeError);
    expect(() => cookie("sid", "v", options)).toThrow(`cookie "sid": ${message}`);
  });

  test("the __Secure- and __Host- prefixes: what browsers demand of them, in any case", () => {
    expect(cookie("__Secure-id", "1", { secure: true }).header).toBe("__Secure-id=1; Secure");
    expect(() => cookie("__Secure-id", "1")).toThrow(
      'cookie "__Secure-id": a name starting with __Secure- needs secure: true',
    );
    expect(() => cookie("__secure-id", "1")).toThrow("needs secure: true");
    expect(cookie("__Host-id", "1", { secure: true, path: "/" }).header).toBe("__Host-id=1; Path=/; Secure");
    expect(() => cookie("__Host-id", "1", { path: "/" })).toThrow("a name starting with __Host- needs secure: true");
    expect(() => cookie("__Host-id", "1", { secure: true })).toThrow('needs path: "/" and no domain');
    expect(() => cookie("__HOST-id", "1", { secure: true, path: "/", domain: "example.com" })).toThrow(
      'needs path: "/" and no domain',
    );
  });
});

describe("deleteCookie()", () => {
  test("an empty value that expired in 1970, with the path and domain it was set with", () => {
    expect(deleteCookie("sid").header).toBe("sid=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0");
    expect(deleteCookie("sid", { path: "/app", domain: "example.com", httpOnly: true }).header).toBe(
      "sid=; Domain=example.com; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; HttpOnly",
    );
    expect(deleteCookie("__Host-sid", { secure: true, path: "/" }).header).toBe(
      "__Host-sid=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Secure",
    );
  });

  test("the same checks as cookie()", () => {
    expect(() => deleteCookie("a;b")).toThrow(TypeError);
    expect(() => deleteCookie("sid", { sameSite: "None" })).toThrow('cookie "sid": sameSite "None" needs secure: true');
  });
});

describe("cookies on a reply", () => {
  test("each cookie is one set-cookie header, after those the headers give, in order", () => {
    const r = json(
      { ok: true },
      {
        status: 201,
        headers: { "Set-Cookie": "given=1", "x-other": "yes" },
        cookies: [cookie("a", "1", { httpOnly: true }), deleteCookie("b")],
      },
    );
    expect(r.status).toBe(201);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["x-other"]).toBe("yes");
    expect(r.headers["set-cookie"]).toEqual([
      "given=1",
      "a=1; HttpOnly",
      "b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0",
    ]);
    expect(Object.isFrozen(r.headers)).toBe(true);
  });

  test("text() and reply() take cookies too; an empty list adds nothing", () => {
    expect(text("hi", { cookies: [cookie("a", "1")] }).headers["set-cookie"]).toEqual(["a=1"]);
    expect(reply({ cookies: [cookie("a", "1"), cookie("b", "2")] }).headers["set-cookie"]).toEqual(["a=1", "b=2"]);
    expect(reply({ cookies: [] }).headers).toEqual({});
  });

  test("withCookies: a reply made elsewhere, with cookies added; the original is unchanged", () => {
    const base = reply({ status: 303, headers: { location: "/home", "set-cookie": ["x=1", "y=2"] } });
    const added = withCookies(base, [cookie("sid", "abc")]);
    expect(added.status).toBe(303);
    expect(added.headers.location).toBe("/home");
    expect(added.headers["set-cookie"]).toEqual(["x=1", "y=2", "sid=abc"]);
    expect(base.headers["set-cookie"]).toEqual(["x=1", "y=2"]);
    expect(() => withCookies({} as never, [])).toThrow(
      new TypeError("withCookies: the first argument must be a reply"),
    );
  });

  test("something that is not a made cookie is a TypeError, even with a header that looks right", () => {
    const forged = { name: "a", value: "1", header: "a=1" } as never;
    expect(() => json({}, { cookies: [forged] })).toThrow(
      "a reply's cookies[0] is not a cookie: make one with cookie(), deleteCookie() or signedCookie()",
    );
    expect(() => json({}, { cookies: "a=1" as never })).toThrow("a reply's cookies must be an array of cookies");
  });

  test("through the pipeline: two set-cookie headers arrive apart", async () => {
    const app = route("GET /login", () => text("in", { cookies: [cookie("a", "1"), cookie("b", "2", { path: "/" })] }));
    const response = await inject(app, { url: "/login" });
    expect(response.headers["set-cookie"]).toEqual(["a=1", "b=2; Path=/"]);
  });

  test("a handler that builds a bad cookie is a 500 (the TypeError, thrown in the handler)", async () => {
    const errors: unknown[] = [];
    const app = route("GET /bad", () => text("x", { cookies: [cookie("sid", "a;b")] }));
    const response = await inject(app, { url: "/bad" }, { onError: (error) => void errors.push(error) });
    expect(response.status).toBe(500);
    expect(errors).toEqual([
      new TypeError(
        `cookie "sid": the value has ';', which a cookie value cannot carry (only printable ASCII but space, '"', ',', ';' and '\\'); encode the value first, e.g. with encodeURIComponent`,
      ),
    ]);
  });
});
