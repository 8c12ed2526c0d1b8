import fc from "fast-check";
import {
  alt,
  cookie,
  inject,
  match,
  redirect,
  route,
  urlFor,
  withCookies,
  type RedirectStatus,
  type Reply,
  type Route,
} from "../src";

/*
 * redirect(location, status?, options?): 302 unless told, a path on this site unless told, and nothing a
 * browser could read as another site (or a header could be split by) gets through.
 */

const SITE = "https://site.example";

describe("redirect: statuses", () => {
  test("302 by default; 301, 303, 307, 308 when asked; a Location header and no body", () => {
    const found = redirect("/home");
    expect([found.status, found.headers, found.body]).toEqual([302, { location: "/home" }, null]);
    for (const status of [301, 302, 303, 307, 308] as const) expect(redirect("/x", status).status).toBe(status);
  });

  test.each([200, 300, 304, 305, 306, 309, 404, 302.5, Number.NaN])("status %p: a TypeError", (status) => {
    expect(() => redirect("/x", status as RedirectStatus)).toThrow(
      new TypeError(`redirect: the status must be 301, 302, 303, 307 or 308, got ${String(status)}`),
    );
  });
});

describe("redirect: same-site paths", () => {
  test.each([
    "/",
    "/home",
    "/users/42?tab=posts#top",
    "/a/%2F%2Fevil.com",
    "/caf%C3%A9",
    "/search?q=a%20b&next=%2Fhome",
    "/a//b",
    "/a/./../b",
  ])("%s is kept as written", (location) => {
    expect(redirect(location).headers.location).toBe(location);
  });

  test.each<[string, string]>([
    ["//evil.com", "starts with //, which a browser reads as another host"],
    ["///evil.com", "starts with //, which a browser reads as another host"],
    ["/\\evil.com", "has '\\'"],
    ["/\\/evil.com", "has '\\'"],
    ["\\\\evil.com", "has '\\'"],
    ["\t//evil.com", "has a control character (U+0009)"],
    [" //evil.com", "has a space"],
    ["/\t/evil.com", "has a control character (U+0009)"],
    ["/home\r\nSet-Cookie: sid=stolen", "has a control character (U+000D)"],
    ["/home\nX: y", "has a control character (U+000A)"],
    ["/home\u0000", "has a control character (U+0000)"],
    ["/a b", "has a space"],
    ["/café", "has a non-ASCII character (U+00E9)"],
    ["/\u2028//evil.com", "has a non-ASCII character (U+2028)"],
    ["/home%0d%0aSet-Cookie:%20sid=stolen", "has a percent-encoded control character (a line break?)"],
    ["/home%0ASet-Cookie: x", "has a space"],
    ["/home%0A", "has a percent-encoded control character (a line break?)"],
    ["/%09/evil.com", "has a percent-encoded control character (a line break?)"],
    ["/%7f", "has a percent-encoded control character (a line break?)"],
    ["", "is empty"],
    ["home", "is neither a path on this site (starting with one /) nor an absolute http(s) URL"],
    ["../admin", "is neither a path on this site (starting with one /) nor an absolute http(s) URL"],
    ["?next=1", "is neither a path on this site (starting with one /) nor an absolute http(s) URL"],
    ["javascript:alert(1)", "has the scheme javascript:, not http: or https:"],
    ["JavaScript:alert(1)", "has the scheme javascript:, not http: or https:"],
    ["data:text/html,<script>alert(1)</script>", "has the scheme data:, not http: or https:"],
    ["vbscript:x", "has the scheme vbscript:, not http: or https:"],
    ["https://evil.com", "leads to https://evil.com, another site"],
    ["http://evil.com/path", "leads to http://evil.com, another site"],
    ["HTTPS://EVIL.COM", "leads to https://evil.com, another site"],
    ["https:evil.com", "leads to https://evil.com, another site"],
    ["https://site.example@evil.com", "leads to https://evil.com, another site"],
  ])("%j: a TypeError naming it", (location, problem) => {
    expect(() => redirect(location)).toThrow(TypeError);
    expect(() => redirect(location)).toThrow(`redirect: the location ${JSON.stringify(location)} ${problem}`);
  });

  test("a location that is no string: a TypeError", () => {
    expect(() => redirect(7 as unknown as string)).toThrow(
      new TypeError("redirect: the location must be a string or URL, got number"),
    );
  });
});

describe("redirect: other sites, only when asked", () => {
  test("{ external: true }: any http(s) URL, written as URL writes it", () => {
    expect(redirect("https://evil.com", 302, { external: true }).headers.location).toBe("https://evil.com/");
    expect(redirect("HTTP://Example.COM:80/a?b#c", 307, { external: true }).headers.location).toBe(
      "http://example.com/a?b#c",
    );
    expect(redirect(new URL("https://münchen.example/straße"), 302, { external: true }).headers.location).toBe(
      "https://xn--mnchen-3ya.example/stra%C3%9Fe",
    );
  });

  test("{ external: true } still refuses other schemes, control characters and backslashes", () => {
    expect(() => redirect("javascript:alert(1)", 302, { external: true })).toThrow("not http: or https:");
    expect(() => redirect("https://a.example/\r\nX: y", 302, { external: true })).toThrow("control character");
    expect(() => redirect("https:\\\\evil.com", 302, { external: true })).toThrow("has '\\'");
    expect(() => redirect("https://", 302, { external: true })).toThrow("is not a valid URL");
  });

  test("allowedOrigins: only the origins listed (scheme, host and port)", () => {
    const options = { allowedOrigins: ["https://accounts.example", "http://localhost:3000/"] };
    expect(redirect("https://accounts.example/login?x=1", 303, options).headers.location).toBe(
      "https://accounts.example/login?x=1",
    );
    expect(redirect("https://ACCOUNTS.example:443/", 302, options).headers.location).toBe("https://accounts.example/");
    expect(redirect("http://localhost:3000/cb", 302, options).headers.location).toBe("http://localhost:3000/cb");
    expect(() => redirect("http://accounts.example/login", 302, options)).toThrow("leads to http://accounts.example");
    expect(() => redirect("https://accounts.example.evil.com/", 302, options)).toThrow("another site");
    expect(() => redirect("https://accounts.example@evil.com/", 302, options)).toThrow("leads to https://evil.com");
    expect(() => redirect("http://localhost:3001/", 302, options)).toThrow("leads to http://localhost:3001");
    // paths on this site need no listing
    expect(redirect("/home", 302, options).headers.location).toBe("/home");
  });

  test("an allowed origin that is no URL: a TypeError", () => {
    expect(() => redirect("https://a.example/", 302, { allowedOrigins: ["a.example"] })).toThrow(
      new TypeError('redirect: allowedOrigins has "a.example", which is not a URL'),
    );
  });
});

describe("redirect: for all strings", () => {
  /** Strings made of the pieces that matter to a location. */
  const location = fc
    .tuple(
      fc.constantFrom("", "/"),
      fc.array(
        fc.oneof(
          {
            arbitrary: fc.constantFrom(
              "/",
              "\\",
              "//",
              "/\\",
              "\t",
              "\n",
              "\r",
              " ",
              "%0d",
              "%0A",
              "%2F",
              ":",
              "@",
              ".",
            ),
            weight: 2,
          },
          {
            arbitrary: fc.constantFrom(
              "http:",
              "https:",
              "javascript:",
              "HTTPS://",
              "evil.com",
              "site.example",
              "a",
              "?",
              "#",
            ),
            weight: 2,
          },
          { arbitrary: fc.string({ unit: "binary", maxLength: 2 }), weight: 1 },
        ),
        { maxLength: 6 },
      ),
    )
    .map(([start, parts]) => start + parts.join(""));

  test("without options, a location that is accepted stays on this site once a browser resolves it", () => {
    let accepted = 0;
    fc.assert(
      fc.property(location, (given) => {
        let written: string;
        try {
          written = redirect(given).headers.location as string;
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          return;
        }
        accepted++;
        expect(new URL(written, `${SITE}/some/page`).origin).toBe(SITE);
        expect(written).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
      }),
      { numRuns: 2000 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  test("with allowedOrigins, an accepted location leads to this site or a listed origin", () => {
    const allowed = "https://accounts.example";
    fc.assert(
      fc.property(location, (given) => {
        let written: string;
        try {
          written = redirect(given, 302, { allowedOrigins: [allowed] }).headers.location as string;
        } catch {
          return;
        }
        expect([SITE, allowed]).toContain(new URL(written, `${SITE}/`).origin);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("redirect in a route", () => {
  const profile = route("GET /users/id:Int", (req) => ({ id: req.vars.id }));
  const app: Route = alt(
    match("/api", profile),
    route(
      "POST /login",
      (): Reply =>
        withCookies(redirect(urlFor(app, profile, { id: 7 }), 303), [cookie("sid", "abc", { httpOnly: true })]),
    ),
    route("GET /old", () => redirect("/new", 301)),
    route("GET /go", (req) => redirect(req.query.get("to") ?? "/")),
  );

  test("urlFor as the location, cookies added: 303, Location, Set-Cookie, no body", async () => {
    const response = await inject(app, { method: "POST", url: "/login" });
    expect(response.status).toBe(303);
    expect(response.headers.location).toBe("/api/users/7");
    expect(response.headers["set-cookie"]).toEqual(["sid=abc; HttpOnly"]);
    expect(response.body).toBe("");
    expect((await inject(app, { url: "/old" })).status).toBe(301);
  });

  test("a location taken from the request cannot lead away: the TypeError is a 500, no Location sent", async () => {
    const errors: unknown[] = [];
    const response = await inject(app, { url: "/go?to=%2F%2Fevil.com" }, { onError: (e) => void errors.push(e) });
    expect(response.status).toBe(500);
    expect(response.headers.location).toBeUndefined();
    expect(errors).toEqual([
      new TypeError('redirect: the location "//evil.com" starts with //, which a browser reads as another host'),
    ]);
    expect((await inject(app, { url: "/go?to=%2Fhome" })).headers.location).toBe("/home");
  });
});
