/*
 * An app bundled as a Workers user's bundler does it (issue 27): esbuild, minified, an ES module for no
 * platform in particular, the package resolved by its exports as a user's bundler does (not by
 * tsconfig's paths to src/), the optional peers an app that does not install them lacks left out. Used
 * by bench/edge.js, bench/bundle-features.js and the bundle tests (test/bundle-size.test.ts,
 * test/bundle-minified.test.ts).
 */
const { build } = require("esbuild");
const path = require("node:path");
const { gzipSync } = require("node:zlib");

const ROOT = path.resolve(__dirname, "../..");

/**
 * Bundles the module `contents`, its imports resolved from `resolveDir` (the repository's root unless
 * given), `external` left out. Resolves with the bundle (`bytes`, `text`), its gzip size (level 9) and
 * the input files that put bytes in it.
 */
async function bundleApp(contents, { resolveDir = ROOT, external = ["multipasta"] } = {}) {
  const result = await build({
    stdin: { contents, resolveDir, sourcefile: "app.mjs" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    write: false,
    metafile: true,
    tsconfigRaw: {},
    external,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  const inputs = Object.values(result.metafile.outputs)[0].inputs;
  return {
    bytes: output.contents,
    text: output.text,
    gzip: gzipSync(output.contents, { level: 9 }).length,
    inputs: Object.keys(inputs).filter((file) => inputs[file].bytesInOutput > 0),
  };
}

module.exports = { bundleApp };
