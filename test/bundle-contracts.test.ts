import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { bundleApp } from "../bench/lib/bundle.js";
import { type HandlerNode, inject, route } from "../src";
import { jsonLines } from "./helpers/node-child";

/*
 * Response contracts in the edge bundle (issue 27): the code that checks or strips a reply comes with
 * the leaf that declares `responses` (`described`), not with the pipeline, so an app that declares
 * none does not carry it; one that does carries it and checks its replies. A leaf made by hand, whose
 * contract nothing brought, is refused when the app is made rather than sent unchecked.
 */

const imports = (entry: string) => `import { alt, described, route } from "switchyard-router";
import { toFetch } from "switchyard-router/${entry}";`;
const IMPORTS = imports("edge");

/** A Standard Schema that wants `{ id: number }`, written out so the bundle needs no library. */
const SCHEMA = `const schema = { "~standard": { version: 1, vendor: "test", validate: (value) =>
  typeof value?.id === "number" ? { value: { id: value.id } } : { issues: [{ message: "id must be a number", path: ["id"] }] } } };`;

/** Words only `ContractError`'s message has: the check's code is in the bundle. */
const CHECK_CODE = "against its contract";

test.each(["edge", "fetch"])(
  "the minimal Fetch app from switchyard-router/%s carries no contract check",
  async (entry) => {
    const { text } = await bundleApp(
      `${imports(entry)}\nexport default { fetch: toFetch(alt(route("GET /", () => "hello"))) };`,
    );
    expect(text).not.toContain(CHECK_CODE);
  },
);

test("an app whose route declares responses carries the check, and it runs: strip and check", async () => {
  const { text } = await bundleApp(`${IMPORTS}
${SCHEMA}
const info = (contract) => ({ contract, responses: { 200: { schema } } });
export default {
  fetch: toFetch(alt(
    route("GET /strip", described(() => ({ id: 1, secret: "x" }), info("strip"))),
    route("GET /check", described(() => ({ id: "one" }), info("check"))),
  ), { onError: () => undefined }),
};`);
  expect(text).toContain(CHECK_CODE);
  const dir = mkdtempSync(path.join(tmpdir(), "switchyard-bundle-contracts-"));
  try {
    const file = path.join(dir, "app.mjs");
    writeFileSync(file, text);
    const runner = `const { default: app } = await import(${JSON.stringify(file)});
for (const url of ["/strip", "/check"]) {
  const response = await app.fetch(new Request("http://localhost" + url));
  console.log(JSON.stringify([url, response.status, await response.text()]));
}`;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", runner]);
    expect(jsonLines(stdout)).toEqual([
      ["/strip", 200, '{"id":1}'],
      ["/check", 500, "Internal Server Error"],
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 30_000);

test("a leaf made by hand whose responses are under a contract is refused, naming described()", async () => {
  class One {}
  const leaf: HandlerNode = Object.freeze({
    kind: "handler",
    handler: () => ({ id: 1 }),
    info: { name: "byHand", contract: "strip" as const, responses: { 200: { description: "one", schema: One } } },
  });
  expect(() => inject(route("GET /u", leaf), { url: "/u" })).toThrow(
    "byHand: a leaf whose responses are under a contract must be made with described()",
  );
  // one whose responses declare nothing a contract can run (a JSON Schema object, a description) serves
  const documented: HandlerNode = Object.freeze({
    ...leaf,
    info: { ...leaf.info, responses: { 200: { description: "one", schema: { type: "object" } } } },
  });
  expect((await inject(route("GET /u", documented), { url: "/u" })).body).toBe('{"id":1}');
  // not under a contract: it serves as before
  const free: HandlerNode = Object.freeze({ ...leaf, info: { responses: { 200: { description: "one" } } } });
  expect((await inject(route("GET /u", free), { url: "/u" })).body).toBe('{"id":1}');
});
