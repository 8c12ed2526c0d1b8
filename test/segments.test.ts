import fc from "fast-check";
import { alt, inject } from "../src";
import { decodeSegment, rawPathOf, splitPath } from "../src/segments";

/*
 * DESIGN.md "Path semantics": the request target is split before decoding, exactly like wai's pathInfo.
 * Each row of the path table is checked on `splitPath` and on what a handler sees (`request.segments`).
 */

const PATH_TABLE: ReadonlyArray<readonly [raw: string, segments: readonly string[], row: string]> = [
  ["/", [], "`/` → []"],
  ["", [], "empty → []"],
  ["/a", ["a"], "`/a` → [a]"],
  ["/a/", ["a", ""], "`/a/` → [a, ''] (trailing slash is an empty segment)"],
  ["/a//b", ["a", "", "b"], "`/a//b` → [a, '', b]"],
  ["/a%2Fb", ["a/b"], "`/a%2Fb` → [a/b] (an encoded slash never splits)"],
  ["/a%2fb", ["a/b"], "`/a%2fb` → [a/b] (lower-case hex too)"],
  ["/a+b", ["a+b"], "`/a+b` → [a+b] (+ is not a space)"],
  ["/a%20b", ["a b"], "`/a%20b` → [a b]"],
  ["/%zz", ["%zz"], "`/%zz` → [%zz] (malformed escape kept literally)"],
  ["/%4", ["%4"], "`/%4` → [%4] (truncated escape kept literally)"],
  ["/%FF", ["\uFFFD"], "`/%FF` → [U+FFFD] (invalid UTF-8 decodes leniently)"],
  ["/a/../b", ["a", "..", "b"], "`/a/../b` → [a, .., b] (no dot-segment removal)"],
  ["/?q=1", [], "`/?q=1` → [] (the path ends at the first `?`)"],
  ["/%C0%AF", ["\uFFFD\uFFFD"], "`/%C0%AF` → [U+FFFD U+FFFD] (an overlong form is two bad bytes)"],
  ["/%e2%82", ["\uFFFD\uFFFD"], "`/%e2%82` → [U+FFFD U+FFFD] (each byte of a broken sequence is one U+FFFD)"],
  ["/%E2%82a", ["\uFFFD\uFFFDa"], "`/%E2%82a` → [U+FFFD U+FFFD a] (broken in the middle)"],
  ["/%F0%9F%98", ["\uFFFD\uFFFD\uFFFD"], "`/%F0%9F%98` → three U+FFFD (truncated at the end)"],
  ["/%E2%82%AC%E2%82", ["€\uFFFD\uFFFD"], "`/%E2%82%AC%E2%82` → [€ U+FFFD U+FFFD]"],
  ["http://example.com/a/b", ["a", "b"], "`http://host/a/b` → [a, b] (absolute form: the authority goes)"],
  ["https://example.com:8443/a", ["a"], "`https://host:port/a` → [a]"],
  ["http://h", [], "`http://h` → [] (an empty path is `/`)"],
  [
    "HTTP://example.com/foo",
    ["HTTP:", "", "example.com", "foo"],
    "`HTTP://example.com/foo` → [HTTP:, '', example.com, foo] (only lower-case http:// and https:// are stripped)",
  ],
  ["x://", ["x:", "", ""], "`x://` → [x:, '', ''] (any other scheme stays part of the path)"],
];

const echoSegments = alt((request) => ({ segments: request.segments }));

describe("DESIGN path table: rawPathOf then splitPath", () => {
  test.each(PATH_TABLE)("path table row %j → %j (%s)", (raw, segments) => {
    expect(splitPath(rawPathOf(raw))).toEqual(segments);
  });
});

describe("DESIGN path table: the segments a handler receives", () => {
  test.each(PATH_TABLE)("path table row %j → %j (%s)", async (raw, segments) => {
    const response = await inject(echoSegments, { url: raw === "" ? "/" : raw });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ segments });
  });
});

describe("more segment cases", () => {
  test("a trailing `%` and a lone `%` are kept", () => {
    expect(splitPath("/%")).toEqual(["%"]);
    expect(splitPath("/a%")).toEqual(["a%"]);
    expect(splitPath("/a%2")).toEqual(["a%2"]);
  });
  test("a valid escape at the very end of a segment is decoded", () => {
    expect(splitPath("/a%41")).toEqual(["aA"]);
    expect(splitPath("/%41/b")).toEqual(["A", "b"]);
  });
  test("multi-byte UTF-8 escapes decode to one character", () => {
    expect(splitPath("/caf%C3%A9")).toEqual(["café"]);
    expect(splitPath("/%F0%9F%98%80")).toEqual(["😀"]);
  });
  test("invalid UTF-8 sequences become U+FFFD, one per bad byte here", () => {
    expect(splitPath("/%FF%FE")).toEqual(["\uFFFD\uFFFD"]);
    // an overlong encoding of `/` must not turn into a slash
    expect(splitPath("/%C0%AF")[0]).not.toContain("/");
  });
  test("decoding is a single pass: `%25` gives `%`, not a second escape", () => {
    expect(splitPath("/%2541")).toEqual(["%41"]);
    expect(splitPath("/%252F")).toEqual(["%2F"]);
  });
  test("`//` is two empty segments", () => {
    expect(splitPath("//")).toEqual(["", ""]);
  });
});

describe("rawPathOf: the path of a request target", () => {
  test("the query (after the first `?`) is not part of the path", () => {
    expect(rawPathOf("/a/b?x=1")).toBe("/a/b");
    expect(rawPathOf("/a?x=1?y=2")).toBe("/a");
    expect(rawPathOf("/?x")).toBe("/");
    expect(rawPathOf("/a%3Fb")).toBe("/a%3Fb");
  });
  // as http-types' extractPath, which warp uses: [target, path, why]
  test.each([
    ["http://example.com/a/b?q", "/a/b", "absolute form: the origin goes"],
    ["https://example.com:8443/a/b", "/a/b", "https too, port included"],
    ["http://example.com", "/", "an empty path is `/`"],
    ["https://example.com", "/", "an empty path is `/`"],
    ["http://example.com?x=/y", "/", "the authority ends at `?` too"],
    ["http://", "/", "no authority, no path"],
    ["", "/", "an empty target is `/`"],
    ["?x", "/", "only a query is `/`"],
    ["HTTP://example.com/foo", "HTTP://example.com/foo", "only the lower-case prefixes are absolute form"],
    ["Http://example.com/foo", "Http://example.com/foo", "only the lower-case prefixes are absolute form"],
    ["ftp://example.com/foo", "ftp://example.com/foo", "any other scheme stays in the path"],
    ["x://", "x://", "any other scheme stays in the path"],
    ["http:/example.com/foo", "http:/example.com/foo", "`http:/` is not `http://`"],
    ["httpx://h/foo", "httpx://h/foo", "the prefix is exactly `http://`"],
    ["/http://h/foo", "/http://h/foo", "origin form: nothing is stripped"],
  ])("%j → %j (%s)", (target, expected) => {
    expect(rawPathOf(target)).toBe(expected);
  });
  test("a query that holds `://` does not make an origin-form target absolute", () => {
    expect(rawPathOf("/r?next=http://x/y")).toBe("/r");
  });
});

/* Properties */

/** Strings made mostly of characters that matter to path splitting and decoding, lone surrogates included. */
const pathLike = fc.string({
  unit: fc.oneof(
    fc.constantFrom("/", "%", "2", "F", "f", "C", "0", "E", "a", "+", "?", "."),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 40,
});
const anyString = fc.oneof(pathLike, fc.string({ unit: "binary" }), fc.string());

describe("segment properties", () => {
  test("splitPath never throws and returns strings, for any string", () => {
    fc.assert(
      fc.property(anyString, (raw) => {
        const segments = splitPath(raw);
        expect(Array.isArray(segments)).toBe(true);
        for (const s of segments) expect(typeof s).toBe("string");
      }),
      { numRuns: 500 },
    );
  });

  test("decodeSegment never throws, for any string", () => {
    fc.assert(
      fc.property(anyString, (raw) => typeof decodeSegment(raw) === "string"),
      { numRuns: 500 },
    );
  });

  test("segments never contain `/` unless it came from %2F", () => {
    fc.assert(
      fc.property(pathLike, (raw) => {
        fc.pre(!/%2f/i.test(raw));
        for (const s of splitPath(raw)) expect(s).not.toContain("/");
      }),
      { numRuns: 1000 },
    );
  });

  test("the number of segments is the number of `/`-separated pieces after the leading `/`", () => {
    fc.assert(
      fc.property(pathLike, (raw) => {
        const body = raw.startsWith("/") ? raw.slice(1) : raw;
        const expected = body === "" ? 0 : body.split("/").length;
        expect(splitPath(raw)).toHaveLength(expected);
      }),
      { numRuns: 500 },
    );
  });

  test("encodeURIComponent'd segments split and decode back to themselves", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 6 }), (segments) => {
        // `/` alone is the root: a single empty segment has no spelling of its own
        fc.pre(!(segments.length === 1 && segments[0] === ""));
        expect(splitPath(`/${segments.map(encodeURIComponent).join("/")}`)).toEqual(segments);
      }),
      { numRuns: 500 },
    );
  });

  test("decodeSegment agrees with decodeURIComponent wherever that succeeds on well-formed text", () => {
    const escapes = fc.string({
      unit: fc.oneof(
        fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, "0")}`),
        fc.constantFrom("a", "+", " ", "é", "%"),
        fc.string({ unit: "binary", maxLength: 1 }),
      ),
      maxLength: 12,
    });
    fc.assert(
      fc.property(escapes, (raw) => {
        let expected: string;
        try {
          expected = decodeURIComponent(raw);
        } catch {
          return; // malformed: covered by the never-throws property
        }
        expect(decodeSegment(raw)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  test("a segment without `%` is returned unchanged", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (raw) => {
        fc.pre(!raw.includes("%"));
        expect(decodeSegment(raw)).toBe(raw);
      }),
    );
  });
});
