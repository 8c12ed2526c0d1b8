import { alt, cookieParam, inject, Int, parseCookies, route } from "../src";
import { toApplication } from "../src/adapters/node";
import { startServer } from "./helpers/server";

/*
 * Hostile Cookie headers: huge, repetitive, malformed, prototype-named. The answers stay clear (a value,
 * or a 400 naming the cookie), nothing is polluted, and parsing time grows linearly with the header.
 */

/** `count` pairs (8 bytes each, on average), duplicates and malformed ones mixed in, and prototype names. */
function hostileHeader(count: number): string {
  const pairs: string[] = [];
  for (let i = 0; i < count; i++) {
    switch (i % 5) {
      case 0:
        pairs.push(`c${i}=v`);
        break;
      case 1:
        pairs.push("dup=2"); // duplicates: the first one wins
        break;
      case 2:
        pairs.push(`j${i}`); // no '=': ignored
        break;
      case 3:
        pairs.push(`=${i}`); // an empty name: ignored
        break;
      default:
        pairs.push(`q${i}="q"`);
    }
  }
  return ["dup=first", "__proto__=polluted", "constructor=c", "prototype=p", ...pairs].join("; ");
}

const app = alt(
  route("GET /count", (req) => ({
    size: req.cookies.size,
    dup: req.cookies.get("dup"),
    proto: req.cookies.get("__proto__"),
    constructor: req.cookies.get("constructor"),
    last: req.cookies.get("c1995") ?? null,
  })),
  route("GET /int", (req) => ({ n: cookieParam(req, "__proto__", Int) })),
  route("GET /all", (req) => Object.fromEntries(req.cookies)),
);

describe("a 16 kB Cookie header of 2,000 pairs", () => {
  const header = hostileHeader(2000);

  test("is about 16 kB", () => {
    expect(header.length).toBeGreaterThan(15_000);
    expect(header.length).toBeLessThan(18_000);
  });

  test("gives clear answers: duplicates first-wins, malformed pairs ignored, prototype names only names", async () => {
    const response = await inject(app, { url: "/count", headers: { cookie: header } });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      // 4 named up front, 400 cN, 400 qN; dup counted once
      size: 4 + 400 + 400,
      dup: "first",
      proto: "polluted",
      constructor: "c",
      last: "v",
    });
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  test("Object.fromEntries of req.cookies makes __proto__ an own property, not a prototype", async () => {
    const body = JSON.parse((await inject(app, { url: "/all", headers: { cookie: header } })).body) as Record<
      string,
      unknown
    >;
    expect(Object.hasOwn(body, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(body)).toBe(Object.prototype);
  });

  test("a cookie named __proto__ read with a parser: a 400 naming it", async () => {
    const response = await inject(app, { url: "/int", headers: { cookie: header } });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toMatchObject({
      errors: [{ in: "cookie", field: "__proto__", constraint: "Int" }],
    });
  });

  test("through node:http too (within its 16 KiB header limit)", async () => {
    const server = await startServer(toApplication(app));
    try {
      const response = await fetch(`${server.url}/count`, { headers: { cookie: hostileHeader(1500) } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ dup: "first", proto: "polluted", constructor: "c" });
    } finally {
      await server.close();
    }
  });
});

/**
 * How many times longer `run` takes on `large` than on `small`: the least time of 20 rounds each, every
 * round timing both, so a busy spell of the host slows both sides rather than one.
 */
function growth(run: (header: string) => unknown, small: string, large: string): number {
  const time = (header: string): number => {
    const start = performance.now();
    for (let i = 0; i < 5; i++) run(header);
    return performance.now() - start;
  };
  // warm up
  for (let r = 0; r < 3; r++) time(small) + time(large);
  let [bestSmall, bestLarge] = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
  for (let r = 0; r < 20; r++) {
    bestSmall = Math.min(bestSmall, time(small));
    bestLarge = Math.min(bestLarge, time(large));
  }
  return bestLarge / Math.max(bestSmall, 0.01);
}

/** A plainly linear pass over the same header that allocates alike: split, trim, a map of the pieces. */
function linearBaseline(header: string): Map<string, string> {
  return new Map(header.split(";").map((pair) => [pair.trim().split("=")[0]!, pair]));
}

describe("parsing time is linear in the header", () => {
  test.each([
    ["pairs of every kind", (n: number) => hostileHeader(n)],
    // each pair has no '=': a search for '=' that runs past the pair's ';' would be quadratic here
    ["pairs without '='", (n: number) => `${"x;".repeat(n)}a=1`],
    ["one long value", (n: number) => `a=${"x".repeat(n * 8)}`],
    ["spaces around every pair", (n: number) => Array.from({ length: n }, (_, i) => `   k${i}  =  v   `).join(";")],
    ["separators only", (n: number) => ";".repeat(n * 8)],
  ])("%s: 20,000 take at most 30 times as long as 2,000", (_what, make) => {
    const small = make(2000);
    const large = make(20_000);
    // 10 times the input: about 10 times the time. A quadratic scan takes about 100 times (planted: 56
    // and 121 on two of these shapes). Allocation and a growing map cost a loaded host more than
    // linearly, so the bound is 30, or 3 times what a plainly linear pass over the same headers shows.
    const parsing = growth(parseCookies, small, large);
    const bound = Math.max(30, 3 * growth(linearBaseline, small, large));
    expect({ parsing, within: parsing < bound }).toEqual({ parsing, within: true });
  });
});
