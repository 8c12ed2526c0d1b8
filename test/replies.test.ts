import fc from "fast-check";
import { validateHeaderName, validateHeaderValue } from "node:http";
import { Readable } from "node:stream";
import { alt, inject, isReply, isRouteMismatch, json, reply, routeMismatch, text, type HandlerResult } from "../src";
import { stringifyJson } from "../src/json";

/*
 * Replies (DESIGN.md "Requests, replies, adapters"): what a handler may return and the reply it stands for.
 */

const answer = (result: HandlerResult | Promise<HandlerResult>) =>
  inject(
    alt(() => result),
    { url: "/" },
  );

describe("plain handler results", () => {
  test("a string is 200 text/plain", async () => {
    const response = await answer("héllo");
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    expect(response.body).toBe("héllo");
  });
  test("the empty string is still a 200 text reply, not a 204", async () => {
    expect(await answer("")).toMatchObject({ status: 200, body: "" });
  });
  test("undefined is 204 with an empty body", async () => {
    expect(await answer(undefined)).toMatchObject({ status: 204, body: "" });
    expect(
      await inject(
        alt(() => {}),
        { url: "/" },
      ),
    ).toMatchObject({ status: 204, body: "" });
    expect(await answer(Promise.resolve(undefined))).toMatchObject({ status: 204, body: "" });
  });
  test("an object or array is 200 application/json", async () => {
    const response = await answer({ a: [1, "two", null], b: { c: true } });
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toEqual({ a: [1, "two", null], b: { c: true } });
    expect(JSON.parse((await answer([1, 2])).body)).toEqual([1, 2]);
  });
  test("null, numbers and booleans are JSON", async () => {
    for (const value of [null, 0, -1.5, true, false]) {
      const response = await answer(value);
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(JSON.parse(response.body)).toBe(value);
    }
  });
  test("a bigint is written as an exact JSON number", async () => {
    expect((await answer({ id: 2n ** 63n - 1n })).body).toBe('{"id":9223372036854775807}');
    expect((await answer(-(10n ** 30n))).body).toBe(`-1${"0".repeat(30)}`);
  });
  test("bytes are 200 application/octet-stream", async () => {
    const response = await answer(new Uint8Array([104, 105]));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/octet-stream");
    expect(response.body).toBe("hi");
    expect((await answer(Buffer.from("buf"))).body).toBe("buf");
  });
  test("a readable stream is 200 application/octet-stream, streamed", async () => {
    const response = await answer(Readable.from([Buffer.from("a"), Buffer.from("b")]));
    expect(response.status).toBe(200);
    expect(response.headers["content-type"]).toBe("application/octet-stream");
    expect(response.body).toBe("ab");
  });
  test("a promise of a result is that result", async () => {
    expect(await answer(Promise.resolve({ ok: 1 }))).toMatchObject({ status: 200, body: '{"ok":1}' });
  });
});

describe("reply()", () => {
  test("defaults: status 200, no headers, no body", () => {
    const r = reply();
    expect(isReply(r)).toBe(true);
    expect(r.status).toBe(200);
    expect(Object.keys(r.headers)).toEqual([]);
    expect(r.body).toBeNull();
  });
  test("status, headers and body are kept; header names are lower-cased", async () => {
    const r = reply({ status: 201, headers: { "X-Thing": "1", "Set-Cookie": ["a=1", "b=2"] }, body: "made" });
    expect(r.status).toBe(201);
    expect(r.headers).toEqual({ "x-thing": "1", "set-cookie": ["a=1", "b=2"] });
    const response = await inject(
      alt(() => r),
      { url: "/" },
    );
    expect(response).toMatchObject({ status: 201, body: "made" });
    expect(response.headers["x-thing"]).toBe("1");
  });
  test("bytes and stream bodies", async () => {
    expect((await answer(reply({ status: 202, body: new Uint8Array([0x6f, 0x6b]) }))).body).toBe("ok");
    expect((await answer(reply({ body: Readable.from(["s", "t"]) }))).body).toBe("st");
  });
  test.each([99, 100, 101, 103, 199, 1000, 200.5, Number.NaN, -200, Infinity])(
    "status %p is a RangeError (1xx are interim, not final)",
    (status) => {
      expect(() => reply({ status })).toThrow(RangeError);
      expect(() => json({}, { status })).toThrow(RangeError);
      expect(() => text("", { status })).toThrow(RangeError);
    },
  );
  test.each([200, 204, 304, 599, 999])("status %p is allowed", (status) => {
    expect(reply({ status }).status).toBe(status);
  });
  test.each([
    ["a value with a line break", { "x-a": "a\r\nInjected: yes" }],
    ["a value with a NUL", { "x-a": "a\u0000b" }],
    ["a name with a space", { "bad name": "v" }],
    ["an empty name", { "": "v" }],
    ["a name with a colon", { "x:y": "v" }],
    ["a non-string value", { "x-a": 5 as unknown as string }],
    ["a bad value in a list", { "set-cookie": ["ok=1", "bad=\n"] }],
  ])("headers with %s are a TypeError at reply time", (_what, headers) => {
    expect(() => reply({ headers })).toThrow(TypeError);
    expect(() => json({}, { headers })).toThrow(TypeError);
    expect(() => text("", { headers })).toThrow(TypeError);
  });
  test("reply accepts exactly the header names and values node:http can send", () => {
    const accepts = (check: () => void): boolean => {
      try {
        check();
        return true;
      } catch {
        return false;
      }
    };
    const headerish = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.string({ unit: fc.integer({ min: 0, max: 0x2ff }).map((c) => String.fromCharCode(c)), maxLength: 6 }),
      fc.string({
        unit: fc.constantFrom("a", "-", " ", ":", "\t", "\r", "\n", "\u0000", "é", "✓", "\u007f"),
        maxLength: 6,
      }),
    );
    fc.assert(
      fc.property(headerish, headerish, (name, value) => {
        const nodeAccepts = accepts(() => {
          validateHeaderName(name);
          validateHeaderValue(name, value);
        });
        expect(accepts(() => reply({ headers: { [name]: value } }))).toBe(nodeAccepts);
      }),
      { numRuns: 1000 },
    );
  });
  test("a handler whose reply has a bad header gets a 500, reported to onError", async () => {
    const errors: unknown[] = [];
    const response = await inject(
      alt(() => reply({ headers: { "x-a": "a\nb" } })),
      { url: "/" },
      { onError: (e) => errors.push(e) },
    );
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });
  test("a header named __proto__ is just a header and pollutes nothing", () => {
    const headers = JSON.parse('{"__proto__": "x", "Constructor": "y"}') as Record<string, string>;
    const r = reply({ headers });
    expect(Object.keys(r.headers).sort()).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, "x")).toBe(false);
  });
});

describe("json() and text()", () => {
  test("json: application/json; charset=utf-8, status and extra headers", () => {
    const r = json({ a: 1 }, { status: 201, headers: { Location: "/a/1" } });
    expect(r.status).toBe(201);
    expect(r.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(r.headers["location"]).toBe("/a/1");
    expect(r.body).toBe('{"a":1}');
  });
  test("text: text/plain; charset=utf-8", () => {
    const r = text("hi", { status: 418 });
    expect(r).toMatchObject({ status: 418, body: "hi" });
    expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
  });
  test("a content-type given in any case replaces the default, once", () => {
    const r = json([1], { headers: { "Content-Type": "application/vnd.api+json" } });
    expect(r.headers).toEqual({ "content-type": "application/vnd.api+json" });
    const t = text("<p>", { headers: { "CONTENT-TYPE": "text/html" } });
    expect(t.headers).toEqual({ "content-type": "text/html" });
  });
  test("json(undefined) is the JSON null", () => {
    expect(json(undefined).body).toBe("null");
  });
});

describe("routeMismatch", () => {
  test("is recognized and is not a reply", () => {
    expect(isRouteMismatch(routeMismatch())).toBe(true);
    expect(isReply(routeMismatch())).toBe(false);
    expect(isRouteMismatch(undefined)).toBe(false);
    expect(isRouteMismatch(Symbol("switchyard.routeMismatch"))).toBe(false);
  });
  test("a look-alike object is not a reply", () => {
    expect(isReply({ status: 200, headers: {}, body: null })).toBe(false);
    expect(isReply(null)).toBe(false);
    expect(isReply("text")).toBe(false);
  });
});

describe("stringifyJson (bigint-safe JSON)", () => {
  test("without bigints it is JSON.stringify", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(stringifyJson(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });
  test("bigints anywhere are written as their exact decimal, and the text parses back", () => {
    fc.assert(
      fc.property(fc.bigInt(), fc.string(), fc.array(fc.bigInt(), { maxLength: 3 }), (b, s, list) => {
        const out = stringifyJson({ b, s, list, nested: { deep: [b] } });
        expect(out).toBe(`{"b":${b},"s":${JSON.stringify(s)},"list":[${list.join(",")}],"nested":{"deep":[${b}]}}`);
        expect(JSON.parse(out).s).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
  test("a top-level bigint is a bare number", () => {
    expect(stringifyJson(5n)).toBe("5");
    expect(stringifyJson(-5n)).toBe("-5");
  });
  test("user strings that look like a bigint marker stay strings", () => {
    const tricky = ["\u0000bigint-x:5", "\u0000", "\\u0000bigint-:1", "bigint-5"];
    for (const s of tricky) {
      expect(JSON.parse(stringifyJson({ s, n: 1n }))).toEqual({ s, n: 1 });
    }
  });
  test("undefined and functions at the top level give null", () => {
    expect(stringifyJson(undefined)).toBe("null");
    expect(stringifyJson(() => 1)).toBe("null");
  });
  test("toJSON is honoured (Day-like values) and bigints returned by toJSON are exact", () => {
    expect(stringifyJson({ d: { toJSON: () => "2024-01-01" } })).toBe('{"d":"2024-01-01"}');
    expect(stringifyJson({ d: { toJSON: () => 12345678901234567890n } })).toBe('{"d":12345678901234567890}');
  });
});
