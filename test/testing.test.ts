import { alt, inject, type InjectRequest, route, testClient } from "../src";

/*
 * The in-memory client's own rules (src/testing.ts): what it checks of a request before sending it
 * through the pipeline.
 */

/** A tree whose one route answers with the headers it read, counting its runs. */
function echoHeaders(): { tree: ReturnType<typeof alt>; runs: () => number } {
  let runs = 0;
  const tree = alt(
    route("/h", (request) => {
      runs++;
      return { one: request.headers.get("x-one"), many: request.headers.get("x-many"), all: [...request.headers] };
    }),
  );
  return { tree, runs: () => runs };
}

/** Header records the types forbid but untyped data (JSON, a config file) can hold. */
const untyped = (headers: unknown): InjectRequest => ({ url: "/h", headers: headers as InjectRequest["headers"] });

describe("header values: a string or an array of strings", () => {
  test.each([
    [
      "an object (as JSON.parse gives)",
      JSON.parse('{"x-meta": {"user": 1}}'),
      /^inject: header "x-meta" must be a string or an array of strings, got an object$/,
    ],
    ["a number", { "x-count": 42 }, /^inject: header "x-count" must be .*, got a number \(42\)$/],
    ["null", { "X-Null": null }, /^inject: header "X-Null" must be .*, got null$/],
    ["a boolean", { "x-flag": true }, /^inject: header "x-flag" must be .*, got a boolean \(true\)$/],
    [
      "an array holding a non-string",
      { "x-list": ["a", 1, "c"] },
      /^inject: header "x-list" must be .*, got an array holding a number \(1\) at index 1$/,
    ],
    [
      "an array holding an object",
      { "x-list": [{}] },
      /^inject: header "x-list" must be .*, got an array holding an object at index 0$/,
    ],
  ])("%s is a TypeError naming the header; nothing runs", async (_kind, headers, message) => {
    const { tree, runs } = echoHeaders();
    const errors: unknown[] = [];
    const onError = (error: unknown): void => void errors.push(error);
    await expect(inject(tree, untyped(headers), { onError })).rejects.toThrow(TypeError);
    await expect(inject(tree, untyped(headers), { onError })).rejects.toThrow(message);
    // the shared client of inject without options, and a testClient of one's own, check the same
    await expect(inject(tree, untyped(headers))).rejects.toThrow(message);
    await expect(testClient(tree, { onError }).request(untyped(headers))).rejects.toThrow(message);
    expect(runs()).toBe(0);
    expect(errors).toEqual([]);
  });

  test("headers that are not a record at all are a TypeError too", async () => {
    const { tree, runs } = echoHeaders();
    await expect(inject(tree, untyped("x-one: 1"))).rejects.toThrow(
      /^inject: headers must be an object of header values, got a string$/,
    );
    await expect(inject(tree, untyped(["x-one", "1"]))).rejects.toThrow(/got an array$/);
    await expect(inject(tree, untyped(null))).rejects.toThrow(/got null$/);
    expect(runs()).toBe(0);
  });

  test("valid values go through: strings, arrays of strings (joined), undefined (absent), any case", async () => {
    const { tree, runs } = echoHeaders();
    const response = await inject(tree, {
      url: "/h",
      headers: { "X-One": "1", "x-many": ["a", "b"], "x-none": undefined, "x-empty": [] },
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({
      one: "1",
      many: "a, b",
      all: [
        ["x-one", "1"],
        ["x-many", "a, b"],
        ["x-empty", ""],
      ],
    });
    expect((await inject(tree, { url: "/h" })).status).toBe(200);
    expect((await inject(tree, { url: "/h", headers: {} })).status).toBe(200);
    expect(runs()).toBe(3);
  });
});
