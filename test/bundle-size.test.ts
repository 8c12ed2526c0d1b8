import { bundleApp } from "../bench/lib/bundle.js";

/*
 * The edge bundle (issue 27): a minimal Fetch app — `route`, `alt`, `toFetch`, two routes — bundled by
 * esbuild from the built package by name, as a Workers user bundles it (minified, platform neutral, ES
 * module). The tools over the tree and the optional features must stay out of it when the app does not
 * use them, and its size must stay within the budget. The optional peers are not installed by such an
 * app, so they are left out (multipasta, loaded by `import()` on the first multipart read).
 */

/** Minified bytes the minimal app may weigh. Issue 27's target is 30 KB; see README.md, "Bundle size on the edge", and BENCHMARKS.md. */
const BUDGET = 80 * 1024;

const MINIMAL_APP = `
import { alt, route } from "switchyard-router";
import { toFetch } from "switchyard-router/fetch";
export default {
  fetch: toFetch(alt(route("GET /", () => "hello"), route("GET /users/id:Int", (req) => ({ id: req.vars.id })))),
};
`;

/** Modules a minimal app never needs: each a tool or feature it does not use. */
const UNUSED = [
  "src/sse/",
  "src/redirect.js",
  "src/cookies/sign.js",
  "src/cookies/read.js",
  "src/params.js",
  "src/validate/body.js",
  "src/validate/query.js",
  "src/validate/json-body.js",
  "src/schema/validate.js",
  "src/forms/fields.js",
  "src/forms/object.js",
  "src/dispatch/interpret.js",
  "src/adapters/express.js",
  "src/adapters/koa.js",
  "src/tools/shadow.js",
  "src/tools/listing.js",
  "src/tools/method-fallbacks.js",
  "src/tools/allow.js",
  "src/tools/openapi.js",
  "src/tools/url.js",
  "src/docs/",
  "src/client/",
  "src/middleware/",
  "src/testing.js",
  "src/adapters/node",
];

test(`the minimal Fetch app bundles within ${BUDGET} bytes, without the tools it does not use`, async () => {
  const { bytes: output, gzip, inputs } = await bundleApp(MINIMAL_APP);
  const bytes = output.length;
  console.log(`minimal Fetch app: ${bytes} bytes minified, ${gzip} gzip (budget ${BUDGET})`);
  expect(inputs.filter((file) => UNUSED.some((unused) => file.includes(unused)))).toEqual([]);
  expect(bytes).toBeLessThanOrEqual(BUDGET);
});
