/*
 * What each feature adds to the edge bundle (issue 27): the minimal Fetch app (`route`, `alt`, two
 * routes, `toFetch` from `switchyard-router/edge`: the interpreter, no form reader) and the same app
 * using one feature more (the full entry, `switchyard-router/fetch`, is one such row), each bundled by esbuild from the
 * built package (minified, platform neutral, ES module, the optional peers left out as an app that
 * does not install them has them); prints a Markdown table of minified and gzip bytes, and the added
 * bytes of each feature; then the minimal app's modules, biggest first, each with the import chain that
 * puts it there (`--modules`, or `--modules=N` for the first N).
 *
 *   npm run build && node bench/bundle-features.js [--modules[=N]]
 */
const { bundleApp } = require("./lib/bundle.js");

const IMPORTS = `import { alt, route } from "switchyard-router";
import { toFetch } from "switchyard-router/edge";`;
const ROUTES = `route("GET /", () => "hello"), route("GET /users/id:Int", (req) => ({ id: req.vars.id }))`;
const minimal = `${IMPORTS}
export default { fetch: toFetch(alt(${ROUTES})) };`;

/** Each feature: what it imports and the app that uses it. */
const features = {
  "the full entry (switchyard-router/fetch: compiled dispatcher, form reader)": [
    `import { toFetch as fullFetch } from "switchyard-router/fetch";`,
    `fullFetch(alt(${ROUTES}))`,
  ],
  "compiled dispatcher (dispatcher: defaultDispatcher)": [
    `import { defaultDispatcher } from "switchyard-router";`,
    `toFetch(alt(${ROUTES}), { dispatcher: defaultDispatcher })`,
  ],
  "405 / HEAD (methodFallbacks)": [
    `import { methodFallbacks } from "switchyard-router";`,
    `toFetch(alt(${ROUTES}), { fallback: methodFallbacks({ methodNotAllowed: true, head: true }) })`,
  ],
  "unreachable check (checkUnreachable)": [
    `import { checkUnreachable } from "switchyard-router";`,
    `(() => { const app = alt(${ROUTES}); checkUnreachable(app, "throw"); return toFetch(app); })()`,
  ],
  cors: [`import { cors } from "switchyard-router";`, `toFetch(cors({ origin: "*" }, alt(${ROUTES})))`],
  cookies: [
    `import { cookie, cookieParam, withCookies } from "switchyard-router";`,
    `toFetch(alt(${ROUTES}, route("GET /c", (req) => withCookies("hi", [cookie("seen", cookieParam(req, "seen") ?? "1")]))))`,
  ],
  "forms (formField, forms: formReader)": [
    `import { formField, formReader } from "switchyard-router";`,
    `toFetch(alt(${ROUTES}, route("POST /f", async (req) => formField(await req.form(), "name"))), { forms: formReader })`,
  ],
  sse: [
    `import { sse } from "switchyard-router";`,
    `toFetch(alt(${ROUTES}, route("GET /e", () => sse(async function* () { yield { data: "hi" }; }))))`,
  ],
  "body validation (Standard Schema)": [
    `import { body } from "switchyard-router";
const schema = { "~standard": { version: 1, vendor: "x", validate: (value) => ({ value }) } };`,
    `toFetch(alt(${ROUTES}, route("POST /b", async (req) => body(req, schema))))`,
  ],
  "response contracts (described responses, contracts option)": [
    `import { described } from "switchyard-router";
const schema = { "~standard": { version: 1, vendor: "x", validate: (value) => ({ value }) } };`,
    `toFetch(alt(${ROUTES}, route("GET /c", described(() => ({ id: 1 }), { responses: { 200: { schema } } }))), { contracts: "check" })`,
  ],
  openapi: [
    `import { openapi } from "switchyard-router";`,
    `(() => { const app = alt(${ROUTES}); const doc = openapi(app, { info: { title: "t", version: "1" } }); return toFetch(alt(app, route("GET /openapi.json", () => doc))); })()`,
  ],
  "docs (OpenAPI + Swagger UI page)": [
    `import { docs } from "switchyard-router";`,
    `(() => { const app = alt(${ROUTES}); return toFetch(alt(app, docs(app, { path: "/docs", title: "t", assets: () => "", openapi: { info: { title: "t", version: "1" } } }))); })()`,
  ],
  decorators: [
    `import { controllers, Route } from "switchyard-router/decorators";
class Users { byId(req) { return { id: req.vars.id }; } }
Route("GET /users/id:Int")(Users.prototype, "byId", Object.getOwnPropertyDescriptor(Users.prototype, "byId"));`,
    `toFetch(controllers([Users]))`,
  ],
};

/** Minified and gzip bytes of `contents` bundled, and its modules (see `bundleApp`). */
async function bundle(contents) {
  const { bytes, gzip, modules } = await bundleApp(contents, {
    external: ["multipasta", "class-validator", "class-transformer", "reflect-metadata", "swagger-ui-dist"],
  });
  return { min: bytes.length, gzip, modules };
}

/** The modules of a bundle as Markdown rows: bytes, file, the chain from the app's import to it. */
function printModules(modules, count) {
  const short = (file) => file.replace(/^dist\/esm\//, "");
  console.log("\n| minified bytes | module | imported by (from the app's import) |");
  console.log("| ---: | --- | --- |");
  for (const { bytes, file, via } of modules.slice(0, count))
    console.log(`| ${bytes} | ${short(file)} | ${via.slice(1).map(short).join(" → ")} |`);
}

async function main() {
  const base = await bundle(minimal);
  console.log("| app | minified | gzip | added (minified / gzip) |");
  console.log("| --- | ---: | ---: | ---: |");
  console.log(`| minimal (route, alt, toFetch from switchyard-router/edge) | ${base.min} | ${base.gzip} | |`);
  for (const [name, [imports, handler]] of Object.entries(features)) {
    const size = await bundle(`${IMPORTS}\n${imports}\nexport default { fetch: ${handler} };`);
    console.log(`| + ${name} | ${size.min} | ${size.gzip} | ${size.min - base.min} / ${size.gzip - base.gzip} |`);
  }
  const asked = process.argv.slice(2).find((arg) => arg.startsWith("--modules"));
  if (asked !== undefined) printModules(base.modules, asked.includes("=") ? Number(asked.split("=")[1]) : Infinity);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
