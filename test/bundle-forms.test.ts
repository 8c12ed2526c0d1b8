import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { bundleApp } from "../bench/lib/bundle.js";
import { formField, formReader, inject, route } from "../src";
import { toFetch as edgeFetch } from "../src/adapters/edge";
import { toFetch } from "../src/adapters/fetch";

/*
 * Forms in the edge bundle (issue 27): `req.form()` and `req.parts()` read through the pipeline's
 * `forms` option, which every adapter gives by default but the edge one (`switchyard-router/edge`), so
 * an edge app that reads no form does not carry the form code; one that passes `forms: formReader`
 * carries it and reads forms. Without it, `req.form()` is an error naming the option, never a silent
 * empty form. The full Fetch entry reads forms as it always did.
 */

const IMPORTS = `import { alt, formField, formReader, route } from "switchyard-router";
import { toFetch } from "switchyard-router/edge";`;

const formCode = (inputs: readonly string[]) => inputs.filter((input) => input.includes("src/forms/"));

test("an edge app that reads no form carries no form code", async () => {
  const { inputs } = await bundleApp(
    `${IMPORTS}\nexport default { fetch: toFetch(alt(route("GET /", () => "hello"))) };`,
  );
  expect(formCode(inputs)).toEqual([]);
});

test("an edge app given the form reader carries it, and reads a form from the bundle", async () => {
  const { inputs, text } = await bundleApp(`${IMPORTS}
export default {
  fetch: toFetch(route("POST /f", async (req) => ({ name: formField(await req.form(), "name") })), { forms: formReader }),
};`);
  expect(formCode(inputs)).toEqual(
    expect.arrayContaining(["dist/esm/src/forms/read.js", "dist/esm/src/forms/multipart.js"]),
  );
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-bundle-forms-"));
  try {
    const file = path.join(dir, "app.mjs");
    writeFileSync(file, text);
    const runner = `const { default: app } = await import(${JSON.stringify(file)});
const response = await app.fetch(new Request("http://localhost/f", { method: "POST", body: new URLSearchParams({ name: "ada" }) }));
console.log(JSON.stringify([response.status, await response.text()]));`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", runner]);
    expect(JSON.parse(stdout)).toEqual([200, '{"name":"ada"}']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

const formRoute = route("POST /f", async (req) => ({ name: formField(await req.form(), "name") }));
const partsRoute = route("POST /f", async (req) => {
  for await (const part of req.parts()) return { first: part.field };
  return {};
});
const post = () => new Request("http://localhost/f", { method: "POST", body: new URLSearchParams({ name: "ada" }) });

test("the edge toFetch without the form reader: req.form() and req.parts() are a 500, onError told what to pass", async () => {
  for (const [tree, call] of [
    [formRoute, "req.form()"],
    [partsRoute, "req.parts()"],
  ] as const) {
    const errors: unknown[] = [];
    const response = await edgeFetch(tree, { onError: (error) => void errors.push(error) })(post());
    expect(response.status).toBe(500);
    expect(String(errors[0])).toBe(
      `TypeError: ${call} needs the form reader: toFetch(tree, { forms: formReader }) from "switchyard-router/edge", formReader from "switchyard-router"`,
    );
  }
  expect(await (await edgeFetch(formRoute, { forms: formReader })(post())).json()).toEqual({ name: "ada" });
  expect(await (await edgeFetch(partsRoute, { forms: formReader })(post())).json()).toEqual({ first: "name" });
});

test("the full toFetch and inject (as the node, Express and Koa adapters) read forms unless told otherwise", async () => {
  expect(await (await toFetch(formRoute)(post())).json()).toEqual({ name: "ada" });
  const answer = await inject(formRoute, {
    method: "POST",
    url: "/f",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "name=ada",
  });
  expect(JSON.parse(answer.body)).toEqual({ name: "ada" });
});
