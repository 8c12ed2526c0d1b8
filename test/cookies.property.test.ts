import fc from "fast-check";
import { cookie, type CookieOptions, json, parseCookies } from "../src";

/*
 * Cookies, for all inputs: what cookie() accepts is read back exactly by parseCookies (no encoding on
 * either side), and whatever strings a caller passes, a cookie either is refused with a TypeError or is
 * a header with nothing but its own attributes in it (no line break, no extra attribute smuggled in).
 */

const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const OCTET_CHARS = "!#$%&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";

const name = fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 20 });
const value = fc.string({ unit: fc.constantFrom(...OCTET_CHARS), maxLength: 60 });

/** Any string, with the characters that matter to a header made likely. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.constantFrom(";", ",", "=", '"', "\\", " ", "\t", "\r", "\n", "\0", "\x7f", "é", "\u2028", "😀"),
    fc.constantFrom(...OCTET_CHARS),
    fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  ),
  maxLength: 30,
});

/** Mostly `valid`, sometimes {@link hostile}. */
const often = (valid: fc.Arbitrary<string>) =>
  fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostile, weight: 1 });

const options: fc.Arbitrary<CookieOptions> = fc.record(
  {
    domain: fc.oneof({ arbitrary: fc.constant("example.com"), weight: 3 }, { arbitrary: hostile, weight: 1 }),
    path: fc.oneof(
      { arbitrary: fc.constant("/"), weight: 3 },
      { arbitrary: hostile.map((s) => `/${s}`), weight: 1 },
      { arbitrary: hostile, weight: 1 },
    ),
    maxAge: fc.integer({ min: -10, max: 1e9 }),
    secure: fc.boolean(),
    httpOnly: fc.boolean(),
    sameSite: fc.constantFrom("Strict", "Lax", "None") as fc.Arbitrary<CookieOptions["sameSite"]>,
    partitioned: fc.boolean(),
    priority: fc.constantFrom("Low", "Medium", "High") as fc.Arbitrary<CookieOptions["priority"]>,
  },
  { requiredKeys: [] },
);

/** The attributes a header is expected to carry for `options`, by name, in the order they are written. */
function expectedAttributes(o: CookieOptions): string[] {
  const names: [keyof CookieOptions, string][] = [
    ["domain", "Domain"],
    ["path", "Path"],
    ["maxAge", "Max-Age"],
    ["secure", "Secure"],
    ["httpOnly", "HttpOnly"],
    ["sameSite", "SameSite"],
    ["partitioned", "Partitioned"],
    ["priority", "Priority"],
  ];
  return names
    .filter(([key]) => o[key] !== undefined && o[key] !== false)
    .map(([key, attribute]) => (o[key] === true ? attribute : `${attribute}=${String(o[key])}`));
}

test("round trip: every allowed name and value is read back exactly as it was set", () => {
  fc.assert(
    fc.property(name, value, (n, v) => {
      const set = cookie(n, v);
      // what a browser sends back: the name=value pair of the Set-Cookie header
      const sent = set.header.split(";")[0]!;
      expect(parseCookies(sent).get(n)).toBe(v);
      expect([...parseCookies(sent)]).toEqual([[n, v]]);
    }),
  );
});

test("round trip of several cookies in one Cookie header, as a browser joins them", () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.tuple(name, value), { selector: ([n]) => n, maxLength: 20 }), (pairs) => {
      const header = pairs.map(([n, v]) => cookie(n, v).header).join("; ");
      expect([...parseCookies(header)]).toEqual(pairs);
    }),
  );
});

test("no header injection: any name, value and attributes give a TypeError or a header carrying exactly them", () => {
  let built = 0;
  let refused = 0;
  fc.assert(
    fc.property(often(name), often(value), options, (n, v, o) => {
      let header: string;
      try {
        header = cookie(n, v, o).header;
      } catch (error) {
        refused++;
        expect(error).toBeInstanceOf(TypeError);
        expect((error as Error).message.startsWith(`cookie ${JSON.stringify(n)}`) || typeof n !== "string").toBe(true);
        return;
      }
      // nothing a header cannot carry, nothing beyond ASCII
      expect(header).toMatch(/^[\x20-\x7e]*$/);
      // the first pair is exactly name=value; what follows is exactly the attributes asked for
      const [pair, ...attributes] = header.split("; ");
      expect(pair).toBe(`${n}=${v}`);
      expect(attributes).toEqual(expectedAttributes(o));
      // and a reply takes it (the header check every adapter relies on)
      expect(json(null, { cookies: [cookie(n, v, o)] }).headers["set-cookie"]).toEqual([header]);
      built++;
    }),
    { numRuns: 500 },
  );
  // both ways are exercised, not only refusals
  expect(Math.min(built, refused)).toBeGreaterThan(25);
});

test("parseCookies never throws, and every name it gives is trimmed and free of ';' and '='", () => {
  fc.assert(
    fc.property(fc.oneof(hostile, fc.string({ unit: "binary" })), (header) => {
      const cookies = parseCookies(header);
      expect(cookies).toBeInstanceOf(Map);
      for (const [n, v] of cookies) {
        expect(n).not.toBe("");
        expect(n).not.toMatch(/[;=]|^[ \t]|[ \t]$/);
        expect(v).not.toMatch(/;/);
      }
    }),
  );
});

test("parseCookies: the first pair of each name wins, whatever the order", () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), value), { maxLength: 10 }), (pairs) => {
      const first = new Map<string, string>();
      for (const [n, v] of pairs)
        if (!first.has(n)) first.set(n, v.length >= 2 && /^".*"$/.test(v) ? v.slice(1, -1) : v);
      expect(parseCookies(pairs.map(([n, v]) => `${n}=${v}`).join("; "))).toEqual(first);
    }),
  );
});
