import { alt, interpret, interpreter, isReply, path, pathEnd, pathVar, Int, method } from "../src";
import { runDispatcherSpec } from "./shared/dispatcher-spec";

/*
 * The reference interpreter: the dispatcher spec (test/shared/dispatcher-spec.ts: spec sections 4.2,
 * 4.3 and 7, DESIGN's path rules, guards, the request a handler receives), and `interpret` itself.
 */

runDispatcherSpec("interpreter (reference)", interpreter);

const named = (name: string) => (): string => name;

describe("interpret", () => {
  test("answers the reply of the first route that answers, or null", async () => {
    const tree = alt(path("/a", named("a")));
    const reply = await interpret(tree, { method: "GET", url: "/a" });
    expect(isReply(reply)).toBe(true);
    expect(reply).toMatchObject({ status: 200, body: "a" });
    expect(await interpret(tree, { method: "GET", url: "/b" })).toBeNull();
  });

  test("reads bodies as the full adapters do, a form too (the edge adapter's interpreter carries no form reader)", async () => {
    const tree = path(
      "/form",
      method("POST", async (req) => (await req.form()).fields.get("name") ?? "none"),
    );
    const reply = await interpret(tree, {
      method: "POST",
      url: "/form",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=Ada",
    });
    expect(reply).toMatchObject({ status: 200, body: "Ada" });
  });

  test("null when no route matches: a segment that does not parse (spec 4.2 rule 3), no alternative left (spec 4.3 rule 4)", async () => {
    const typed = path("/u", pathVar("id", Int, pathEnd(named("int"))));
    expect(await interpret(typed, { method: "GET", url: "/u/x" })).toBeNull();
    const tree = alt(path("/a", pathEnd(named("a"))), method("POST", named("post")));
    expect(await interpret(tree, { method: "GET", url: "/b" })).toBeNull();
  });

  test("a handler's error rejects the promise", async () => {
    const boom = new Error("boom");
    await expect(
      interpret(
        alt(() => {
          throw boom;
        }),
        { method: "GET", url: "/" },
      ),
    ).rejects.toBe(boom);
    await expect(
      interpret(
        alt(() => Promise.reject(boom)),
        { method: "GET", url: "/" },
      ),
    ).rejects.toBe(boom);
  });
});
