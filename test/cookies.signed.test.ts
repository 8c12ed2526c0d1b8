import fc from "fast-check";
import {
  cookieSigner,
  inject,
  Int,
  parseCookies,
  route,
  signedCookie,
  signedCookieParam,
  text,
  type CookieSigner,
} from "../src";

/*
 * Signed cookies through Web Crypto HMAC-SHA256: signed on set, verified on read. A value whose
 * signature is wrong (unsigned, tampered with, signed for another name, or with a retired secret)
 * counts as not sent: undefined when optional, a 400 (constraint "signature") when required.
 */

const OLD = "an old secret of at least thirty-two bytes";
const NEW = "a new secret, also at least thirty-two bytes";
const signer = cookieSigner(NEW);

const OCTET_CHARS = "!#$%&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";
const value = fc.string({ unit: fc.constantFrom(...OCTET_CHARS), maxLength: 40 });

describe("cookieSigner", () => {
  test("sign gives value.signature: 43 base64url characters; verify gives the value back", async () => {
    const signed = await signer.sign("sid", "abc");
    expect(signed).toMatch(/^abc\.[A-Za-z0-9_-]{43}$/);
    expect(await signer.verify("sid", signed)).toBe("abc");
    // the same value signs the same way (the signature is a function of name, value and secret)
    expect(await signer.sign("sid", "abc")).toBe(signed);
    // a value with dots of its own: the signature is after the last one
    expect(await signer.verify("sid", await signer.sign("sid", "a.b.c"))).toBe("a.b.c");
    expect(await signer.verify("sid", await signer.sign("sid", ""))).toBe("");
  });

  test("the signature is HMAC-SHA256 of name=value, as Web Crypto computes it (a known answer)", async () => {
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(NEW),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode("sid=abc")));
    const expected = btoa(String.fromCharCode(...mac))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
    expect(await signer.sign("sid", "abc")).toBe(`abc.${expected}`);
  });

  test("unsigned, tampered with, or signed for another name: undefined", async () => {
    const signed = await signer.sign("sid", "abc");
    const signature = signed.slice(4);
    expect(await signer.verify("sid", "abc")).toBeUndefined();
    expect(await signer.verify("sid", `abd.${signature}`)).toBeUndefined();
    expect(await signer.verify("sid", `${signed.slice(0, -1)}${signed.endsWith("A") ? "B" : "A"}`)).toBeUndefined();
    expect(await signer.verify("sid", `${signed}A`)).toBeUndefined();
    expect(await signer.verify("sid", signed.slice(0, -1))).toBeUndefined();
    expect(await signer.verify("other", signed)).toBeUndefined();
    expect(await signer.verify("sid", `abc.${"A".repeat(43)}`)).toBeUndefined();
    expect(await signer.verify("sid", `abc.${"!".repeat(43)}`)).toBeUndefined();
    expect(await signer.verify("sid", "")).toBeUndefined();
    expect(await signer.verify("sid", ".")).toBeUndefined();
    expect(await signer.verify("sid", 42 as unknown as string)).toBeUndefined();
  });

  test("one signature has one spelling: the last character's spare bits must be zero", async () => {
    const signed = await signer.sign("sid", "abc");
    const last = signed.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const digit = alphabet.indexOf(last);
    // the same 256 bits, with a spare bit set
    const respelled = `${signed.slice(0, -1)}${alphabet[digit | 1]!}`;
    expect(digit & 3).toBe(0);
    expect(await signer.verify("sid", respelled)).toBeUndefined();
  });

  test("another secret's signature is refused", async () => {
    expect(await cookieSigner(OLD).verify("sid", await signer.sign("sid", "abc"))).toBeUndefined();
  });

  test("key rotation: the first secret signs, every listed secret verifies", async () => {
    const before = await cookieSigner(OLD).sign("sid", "abc");
    const rotating = cookieSigner([NEW, OLD]);
    expect(await rotating.verify("sid", before)).toBe("abc");
    const after = await rotating.sign("sid", "abc");
    expect(after).toBe(await signer.sign("sid", "abc"));
    expect(await cookieSigner([OLD, NEW]).verify("sid", after)).toBe("abc");
    // the old secret retired: its cookies read as unsigned
    expect(await cookieSigner(NEW).verify("sid", before)).toBeUndefined();
  });

  test("secrets as bytes", async () => {
    const bytes = new Uint8Array(32).map((_, i) => i * 7);
    const byBytes = cookieSigner(bytes);
    expect(await byBytes.verify("a", await byBytes.sign("a", "1"))).toBe("1");
    // the signer keeps its own copy: changing the array later changes nothing
    const signed = await byBytes.sign("a", "1");
    bytes[0] = 99;
    expect(await cookieSigner(new Uint8Array(32).map((_, i) => i * 7)).verify("a", signed)).toBe("1");
  });

  test("a secret shorter than 32 bytes, no secret, a secret that is no string: TypeError at once", () => {
    expect(() => cookieSigner("short")).toThrow(
      new TypeError(
        "cookieSigner: secret 1 has 5 bytes; an HMAC-SHA256 secret needs at least 32 (e.g. 32 random bytes)",
      ),
    );
    expect(() => cookieSigner([NEW, "x".repeat(31)])).toThrow("cookieSigner: secret 2 has 31 bytes");
    expect(() => cookieSigner([])).toThrow(new TypeError("cookieSigner: give at least one secret"));
    expect(() => cookieSigner([42 as unknown as string])).toThrow("cookieSigner: secret 1 must be a string or bytes");
  });

  test("for all values: verify(sign(v)) is v, and changing any one character of the signed value is refused", async () => {
    await fc.assert(
      fc.asyncProperty(value, fc.nat(), fc.constantFrom(...OCTET_CHARS), async (v, at, replacement) => {
        const signed = await signer.sign("sid", v);
        expect(await signer.verify("sid", signed)).toBe(v);
        const i = at % signed.length;
        if (signed[i] === replacement) return;
        const changed = signed.slice(0, i) + replacement + signed.slice(i + 1);
        expect(await signer.verify("sid", changed)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe("signedCookie: a signed cookie for a reply", () => {
  test("the header carries value.signature and the attributes", async () => {
    const c = await signedCookie("sid", "user-7", signer, { httpOnly: true, path: "/" });
    expect(c.header).toMatch(/^sid=user-7\.[A-Za-z0-9_-]{43}; Path=\/; HttpOnly$/);
    expect(c.value).toBe(await signer.sign("sid", "user-7"));
  });

  test("the cookie checks apply, naming the value given", async () => {
    await expect(signedCookie("sid", "a b", signer)).rejects.toThrow(`cookie "sid": the value has a space`);
    await expect(signedCookie("a;b", "1", signer)).rejects.toThrow(TypeError);
    await expect(signedCookie("sid", "1", signer, { sameSite: "None" })).rejects.toThrow(
      'sameSite "None" needs secure: true',
    );
  });
});

describe("signedCookieParam: read, verified, parsed", () => {
  const app = route("GET /me", async (req) => ({
    user: await signedCookieParam(req, "uid", signer, Int),
  }));
  const optional = route("GET /maybe", async (req) => ({
    user: (await signedCookieParam(req, "uid", signer, Int, { optional: true })) ?? null,
  }));
  const login = route("GET /login", async () => text("in", { cookies: [await signedCookie("uid", "7", signer)] }));

  const get = async (tree: typeof app, url: string, cookieHeader?: string) => {
    const response = await inject(tree, { url, headers: cookieHeader === undefined ? {} : { cookie: cookieHeader } });
    return { status: response.status, body: JSON.parse(response.body) as unknown };
  };

  test("set by one route, read back by another", async () => {
    const set = await inject(login, { url: "/login" });
    expect(set.headers["set-cookie"]).toEqual([expect.stringMatching(/^uid=7\.[\w-]{43}$/)]);
    const sent = (set.headers["set-cookie"] as readonly string[])[0]!;
    expect(await get(app, "/me", sent)).toEqual({ status: 200, body: { user: 7 } });
  });

  test("a wrong signature, required: 400 naming the cookie, constraint signature", async () => {
    const expected = {
      status: 400,
      body: {
        error: 'the cookie "uid" has no valid signature',
        errors: [
          {
            in: "cookie",
            field: "uid",
            constraint: "signature",
            message:
              'the cookie "uid" has no valid signature (unsigned, changed, or signed with a secret no longer accepted)',
          },
        ],
      },
    };
    expect(await get(app, "/me", "uid=7")).toEqual(expected);
    const forged = (await signer.sign("uid", "7")).replace(/^7/, "8");
    expect(await get(app, "/me", `uid=${forged}`)).toEqual(expected);
    expect(await get(app, "/me", `uid=${await cookieSigner(OLD).sign("uid", "7")}`)).toEqual(expected);
  });

  test("missing, required: the 400 of a missing cookie", async () => {
    expect(await get(app, "/me")).toEqual({
      status: 400,
      body: {
        error: 'the cookie "uid" is required',
        errors: [{ in: "cookie", field: "uid", constraint: "required", message: 'the cookie "uid" is required (Int)' }],
      },
    });
  });

  test("a wrong signature or none, optional: undefined, as if not sent", async () => {
    expect(await get(optional, "/maybe", "uid=7")).toEqual({ status: 200, body: { user: null } });
    expect(await get(optional, "/maybe")).toEqual({ status: 200, body: { user: null } });
    expect(await get(optional, "/maybe", `uid=${await signer.sign("uid", "7")}`)).toEqual({
      status: 200,
      body: { user: 7 },
    });
  });

  test("a good signature over a value the parser refuses: the parser's 400", async () => {
    const response = await get(app, "/me", `uid=${await signer.sign("uid", "seven")}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ errors: [{ in: "cookie", field: "uid", constraint: "Int" }] });
  });

  test("the first of duplicate cookies is the one verified", async () => {
    const good = await signer.sign("uid", "7");
    expect(await get(app, "/me", `uid=${good}; uid=8`)).toEqual({ status: 200, body: { user: 7 } });
    expect((await get(app, "/me", `uid=8; uid=${good}`)).status).toBe(400);
  });

  test("a signer's keys are imported once and shared by concurrent reads", async () => {
    const s: CookieSigner = cookieSigner(NEW);
    const signed = await Promise.all(Array.from({ length: 20 }, (_, i) => s.sign("n", String(i))));
    const read = await Promise.all(signed.map((v) => s.verify("n", v)));
    expect(read).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    expect(parseCookies(`n=${signed[3]}`).get("n")).toBe(signed[3]);
  });
});
