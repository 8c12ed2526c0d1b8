import {
  alt,
  Bool,
  cookieParam,
  cookieSigner,
  inject,
  Int,
  queryParam,
  readParams,
  readParamsAsync,
  route,
  signedCookieParam,
  type InjectRequest,
  type Route as Tree,
} from "../src";
import { Cookie, controllers, Newtype, PathType, Query, Route } from "../decorators";
import { expectControllerError } from "./helpers/decorators";

/*
 * @Cookie against its functional counterpart (cookieParam, signedCookieParam): the same answers for
 * the same requests. The parser comes from the decorator or the declared type; misuse is a startup
 * error naming the class and method.
 */

@PathType()
class Theme extends Newtype(Int) {}

const signer = cookieSigner("a secret of thirty-two bytes or more, for tests");

class Prefs {
  @Route("GET /prefs")
  prefs(
    @Cookie("page", Int) page: number,
    @Cookie("theme") theme: Theme,
    @Cookie("beta", Bool, { optional: true }) beta: boolean | undefined,
    @Cookie("name") name: string,
  ) {
    return { page, theme: theme.value, themeIsTheme: theme instanceof Theme, beta: beta ?? null, name };
  }

  @Route("GET /mixed")
  mixed(@Query("q", Int) q: number, @Cookie("c", Int) c: number) {
    return { q, c };
  }

  @Route("GET /signed")
  signed(@Cookie("uid", Int, { signed: signer }) uid: number, @Cookie("page", Int, { optional: true }) page?: number) {
    return { uid, page: page ?? null };
  }

  @Route("GET /signed-optional")
  signedOptional(@Cookie("uid", Int, { signed: signer, optional: true }) uid: number | undefined) {
    return { uid: uid ?? null };
  }
}

const decorated = controllers([Prefs]);
const functional: Tree = alt(
  route("GET /prefs", (req) => {
    const [page, theme, beta, name] = readParams(req, [
      (r) => cookieParam(r, "page", Int),
      (r) => cookieParam(r, "theme", Theme),
      (r) => cookieParam(r, "beta", Bool, { optional: true }),
      (r) => cookieParam(r, "name"),
    ]);
    return { page, theme: theme.value, themeIsTheme: theme instanceof Theme, beta: beta ?? null, name };
  }),
  route("GET /mixed", (req) => {
    const [q, c] = readParams(req, [(r) => queryParam(r, "q", Int), (r) => cookieParam(r, "c", Int)]);
    return { q, c };
  }),
  route("GET /signed", async (req) => {
    const [uid, page] = await readParamsAsync(req, [
      (r) => signedCookieParam(r, "uid", signer, Int),
      (r) => cookieParam(r, "page", Int, { optional: true }),
    ]);
    return { uid, page: page ?? null };
  }),
  route("GET /signed-optional", async (req) => ({
    uid: (await signedCookieParam(req, "uid", signer, Int, { optional: true })) ?? null,
  })),
);

async function call(app: Tree, request: InjectRequest): Promise<{ status: number; body: unknown }> {
  const response = await inject(app, request);
  return { status: response.status, body: JSON.parse(response.body) };
}

const withCookie = (url: string, cookie: string): InjectRequest => ({ url, headers: { cookie } });

describe("@Cookie and cookieParam answer alike", () => {
  const cases: [string, () => Promise<InjectRequest>][] = [
    ["every cookie good", async () => withCookie("/prefs", "page=2; theme=5; beta=TRUE; name=ada")],
    ["an optional one missing", async () => withCookie("/prefs", "page=2; theme=5; name=ada")],
    ["a bad Int, a missing Text: one 400 for both", async () => withCookie("/prefs", "page=two; theme=5")],
    ["a bad newtype", async () => withCookie("/prefs", "page=1; theme=x; name=a")],
    ["no Cookie header", async () => ({ url: "/prefs" })],
    ["a query parameter and a cookie fail together", async () => withCookie("/mixed?q=x", "c=y")],
    ["a signed cookie, good", async () => withCookie("/signed", `uid=${await signer.sign("uid", "7")}; page=3`)],
    [
      "a signed cookie, tampered",
      async () => withCookie("/signed", `uid=8${(await signer.sign("uid", "7")).slice(1)}`),
    ],
    ["a signed cookie, unsigned", async () => withCookie("/signed", "uid=7")],
    ["a signed cookie and a bad plain one", async () => withCookie("/signed", "uid=7; page=x")],
    ["a signed optional cookie, unsigned", async () => withCookie("/signed-optional", "uid=7")],
    [
      "a signed optional cookie, good",
      async () => withCookie("/signed-optional", `uid=${await signer.sign("uid", "9")}`),
    ],
  ];

  test.each(cases)("%s", async (_name, make) => {
    const request = await make();
    expect(await call(decorated, request)).toEqual(await call(functional, request));
  });

  test("what they answer", async () => {
    expect(await call(decorated, withCookie("/prefs", "page=2; theme=5; beta=TRUE; name=ada"))).toEqual({
      status: 200,
      body: { page: 2, theme: 5, themeIsTheme: true, beta: true, name: "ada" },
    });
    const failing = await call(decorated, withCookie("/prefs", "page=two; theme=5"));
    expect(failing.status).toBe(400);
    expect((failing.body as { errors: unknown[] }).errors).toEqual([
      { in: "cookie", field: "page", constraint: "Int", message: '"two" is not a valid Int' },
      { in: "cookie", field: "name", constraint: "required", message: 'the cookie "name" is required (Text)' },
    ]);
    expect(await call(decorated, withCookie("/signed", `uid=${await signer.sign("uid", "7")}`))).toEqual({
      status: 200,
      body: { uid: 7, page: null },
    });
    expect(await call(decorated, withCookie("/signed", "uid=7"))).toMatchObject({
      status: 400,
      body: { errors: [{ in: "cookie", field: "uid", constraint: "signature" }] },
    });
    const both = await call(decorated, withCookie("/signed", "uid=7; page=x"));
    expect(
      (both.body as { errors: { field: string; constraint: string }[] }).errors.map((e) => [e.field, e.constraint]),
    ).toEqual([
      ["uid", "signature"],
      ["page", "Int"],
    ]);
    expect(await call(decorated, withCookie("/signed-optional", "uid=7"))).toEqual({
      status: 200,
      body: { uid: null },
    });
  });

  test("cookie names are case-sensitive (unlike @Header's)", async () => {
    expect((await call(decorated, withCookie("/prefs", "Page=2; theme=5; name=a"))).status).toBe(400);
  });
});

describe("@Cookie misuse", () => {
  test("no name, a type that is no parser, a signer that is none: TypeError at once", () => {
    expect(() => Cookie("")).toThrow(new TypeError("@Cookie: the name must be a non-empty string"));
    expect(() => Cookie("a", {} as never)).toThrow(
      new TypeError("@Cookie: the type must be a parser (Int, Text, a Newtype class, …)"),
    );
    expect(() => Cookie("a", Int, { signed: "secret" as never })).toThrow(
      new TypeError("@Cookie: signed must be a cookie signer (cookieSigner(secrets))"),
    );
  });

  test("number is ambiguous: a startup error naming class and method", () => {
    class Ambiguous {
      @Route("GET /a")
      a(@Cookie("n") _n: number) {}
    }
    const error = expectControllerError(() => controllers([Ambiguous]), "PARAM_TYPE", "Ambiguous", "a");
    expect(error.message).toContain(
      '@Cookie("n") on parameter 0 is declared as number, which is ambiguous: write @Cookie("n", Int)',
    );
  });

  test("a declared type the parser contradicts: a startup error", () => {
    class Contradicts {
      @Route("GET /a")
      a(@Cookie("n", Bool) _n: number) {}
    }
    const error = expectControllerError(() => controllers([Contradicts]), "PARAM_TYPE_MISMATCH", "Contradicts", "a");
    expect(error.message).toBe(
      'Contradicts.a: parameter 0 (@Cookie("n")) is declared as number, but Bool gives boolean values',
    );
  });

  test("two decorators on one parameter, a parameter of no route", () => {
    class Twice {
      @Route("GET /a")
      a(@Cookie("n") @Query("n") _n: string) {}
    }
    expectControllerError(() => controllers([Twice]), "DUPLICATE_PARAM", "Twice", "a");
    class NoRoute {
      @Route("GET /a")
      a() {}
      b(@Cookie("n") _n: string) {}
    }
    expectControllerError(() => controllers([NoRoute]), "NOT_A_ROUTE", "NoRoute", "b");
  });
});
