import { inject, type RoutedRequest, route } from "../src";

/*
 * `req.text()` and `req.json()` answer every failure as a rejected promise, never a throw at the call:
 * a caller that chains on them (`req.json().then(…, …)`, a reader handing the promise on) sees each
 * failure in one place. Their refusals before reading — a bad `accept` option, a content type json()
 * does not read — are such rejections too.
 */

/** How a call went: whether it threw where it was made, and how its promise settled. */
async function outcome(call: () => Promise<unknown>): Promise<{ threw: boolean; settled: string }> {
  let promise: Promise<unknown>;
  try {
    promise = call();
  } catch (error) {
    return { threw: true, settled: (error as Error).message };
  }
  return promise.then(
    (value) => ({ threw: false, settled: `fulfilled ${JSON.stringify(value)}` }),
    (error: Error) => ({ threw: false, settled: `rejected ${error.message}` }),
  );
}

const calls: [string, string, (req: RoutedRequest) => Promise<unknown>][] = [
  ["json() with a bad accept option", "application/json", (req) => req.json({ accept: "yes" as never })],
  ["json() of a content type it does not read", "application/xml", (req) => req.json()],
  ["json() of malformed JSON", "application/json", (req) => req.json()],
  ["text() after stream() took the body", "text/plain", (req) => (req.stream(), req.text())],
  ["json() after stream() took the body", "application/json", (req) => (req.stream(), req.json())],
  ["bytes() after stream() took the body", "text/plain", (req) => (req.stream(), req.bytes())],
];

test.each(calls)("%s is a rejected promise, not a throw", async (_name, contentType, call) => {
  const tree = route("POST /", async (req) => outcome(() => call(req)));
  const headers = { "content-type": contentType };
  const res = await inject(tree, { method: "POST", url: "/", headers, body: "{not json" });
  const got = JSON.parse(res.body) as { threw: boolean; settled: string };
  expect(got.threw).toBe(false);
  expect(got.settled).toMatch(/^rejected /);
});

test("json() and text() read the body as before", async () => {
  const tree = route("POST /", async (req) => ({ json: await req.json() }));
  const res = await inject(tree, {
    method: "POST",
    url: "/",
    headers: { "content-type": "application/json" },
    body: '{"a":1}',
  });
  expect(JSON.parse(res.body)).toEqual({ json: { a: 1 } });
  const text = route("POST /", async (req) => ({ text: await req.text() }));
  const res2 = await inject(text, { method: "POST", url: "/", body: "héllo" });
  expect(JSON.parse(res2.body)).toEqual({ text: "héllo" });
});
