import { HttpError, inject, type Route, route } from "../src";

/*
 * The body errors the framework makes for a client's mistake (413 over the limit, 400 for empty or
 * malformed JSON) carry no stack trace: their message says what is wrong, and capturing a stack costs
 * most of making the error. onError still sees each, and the answer is unchanged.
 */

const tree: Route = route("POST /x", async (req) => req.json());

/** The error `onError` saw for `body`, and the answer's status and JSON. */
async function failure(body: string, bodyLimit?: number): Promise<{ error: HttpError; status: number; json: unknown }> {
  const seen: unknown[] = [];
  const options = {
    onError: (error: unknown) => {
      seen.push(error);
    },
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
  };
  const response = await inject(tree, { method: "POST", url: "/x", body }, options);
  expect(seen).toHaveLength(1);
  expect(seen[0]).toBeInstanceOf(HttpError);
  return { error: seen[0] as HttpError, status: response.status, json: JSON.parse(response.body) };
}

test.each([
  ["an empty body", "", undefined, 400, "request body is empty; expected JSON"],
  ["malformed JSON", "{nope", undefined, 400, /^request body is not valid JSON: /],
  ["a body over the limit", '{"a":1}', 3, 413, "request body is larger than the limit of 3 bytes"],
])("%s is answered as before, with an error without a stack", async (_, body, limit, status, message) => {
  const { error, status: answered, json } = await failure(body, limit);
  expect(answered).toBe(status);
  expect(error.status).toBe(status);
  expect(json).toEqual({ error: expect.stringMatching(message) });
  expect(error.stack).toBe(`HttpError: ${error.message}`);
});

test("malformed JSON keeps the parser's error as its cause", async () => {
  const { error } = await failure("[1,");
  expect(error.cause).toBeInstanceOf(SyntaxError);
});

test("errors the app makes itself keep their stack", () => {
  expect(new HttpError(413).stack).toMatch(/\n\s+at /);
});
