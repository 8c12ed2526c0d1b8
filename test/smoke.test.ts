import { alt, inject, Int, method, path, pathEnd, pathVar, routeMismatch } from "../src";

test("smoke", async () => {
  const tree = alt(
    method("GET", path("/a", pathVar("id", Int, pathEnd((req) => ({ id: req.vars.id, big: 5n }))))),
    pathVar("x", Int, () => routeMismatch()),
    path("/boom", () => {
      throw new Error("x");
    }),
  );
  expect(await inject(tree, { url: "/a/7" })).toMatchObject({ status: 200, body: '{"id":7,"big":5}' });
  expect(await inject(tree, { url: "/a/x" })).toMatchObject({ status: 404, body: "" });
  expect(await inject(tree, { url: "/boom" }, { onError: () => {} })).toMatchObject({ status: 500 });
});
