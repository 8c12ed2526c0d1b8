import fc from "fast-check";
import { fieldErrorsOf } from "../src/validate/field-errors";
import { jsonBody } from "../src/validate/json-body";
import { adapterInput } from "../src/input";
import { RequestContext } from "../src/request";

/*
 * jsonBody's nesting bound against its definition: objects and arrays nest `depth(value)` deep (the body
 * itself is level 1, a primitive 0), and a body deeper than `maxDepth` is the `maxDepth` 400, any other
 * body is given back as parsed.
 */

const depth = (value: unknown): number =>
  typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depth)) : 0;

const post = (text: string) =>
  new RequestContext(
    adapterInput({ method: "POST", url: "/", headers: { "content-type": "application/json" }, body: text }),
  );

test("a body is refused exactly when it nests deeper than maxDepth", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.jsonValue({ maxDepth: 6, depthSize: "large" }),
      fc.integer({ min: 0, max: 7 }),
      async (value, maxDepth) => {
        const text = JSON.stringify(value);
        const outcome = await jsonBody(post(text), maxDepth).then(
          (plain) => ({ plain }),
          (error: unknown) => ({ error }),
        );
        if (depth(value) > maxDepth) {
          expect(fieldErrorsOf((outcome as { error: unknown }).error)?.map((e) => e.constraint)).toEqual(["maxDepth"]);
        } else {
          expect(outcome).toEqual({ plain: JSON.parse(text) });
        }
      },
    ),
    { numRuns: 500 },
  );
});

test("malformed JSON is the isJson 400; an error that is no 400 goes on as it is", async () => {
  const malformed = await jsonBody(post("{")).catch((error: unknown) => error);
  expect(fieldErrorsOf(malformed)?.map((e) => e.constraint)).toEqual(["isJson"]);
  const boom = new Error("boom");
  const thrower = Object.assign(post("{}"), {
    json: () => {
      throw boom;
    },
  });
  expect(await jsonBody(thrower).catch((error: unknown) => error)).toBe(boom);
});

test("only the body's own values nest: an enumerable property on Object.prototype is not counted", async () => {
  const prototype = Object.prototype as { deep?: unknown };
  // a polluted prototype (as a vulnerable library might leave it) must not turn a flat body into a 400
  Object.defineProperty(prototype, "deep", { value: [[[[[]]]]], enumerable: true, configurable: true });
  try {
    await expect(jsonBody(post('{"name":"Ada","tags":["a"]}'), 2)).resolves.toEqual({ name: "Ada", tags: ["a"] });
  } finally {
    delete prototype.deep;
  }
});
