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
 * given), `external` left out. Resolves with the bundle (`bytes`, `text`), its gzip size (level 9), the
 * input files that put bytes in it, and `modules`: each of those with its minified bytes and `via`, the
 * shortest import chain from the app to it through files that are in the bundle (why it is there),
 * biggest first.
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
  const kept = Object.keys(inputs).filter((file) => inputs[file].bytesInOutput > 0);
  const chains = importChains(result.metafile.inputs, new Set(kept));
  return {
    bytes: output.contents,
    text: output.text,
    gzip: gzipSync(output.contents, { level: 9 }).length,
    inputs: kept,
    modules: kept
      .map((file) => ({ file, bytes: inputs[file].bytesInOutput, via: chains.get(file) ?? [] }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

/**
 * The shortest import chain from the app to each file, through files in the bundle: a module is there
 * because the chain's modules use it. The app's own imports that carry code are followed first; an
 * entry that only re-exports (the package's index, and the folders' index files it re-exports: no bytes
 * of their own) explains only what they do not.
 */
function importChains(graph, kept) {
  const chains = new Map([["app.mjs", []]]);
  const entries = (graph["app.mjs"]?.imports ?? []).map((i) => i.path);
  const walk = (from, through) => {
    const queue = [];
    for (const entry of from) {
      if (chains.has(entry)) continue;
      chains.set(entry, ["app.mjs"]);
      queue.push(entry);
    }
    while (queue.length > 0) {
      const file = queue.shift();
      for (const { path: imported } of graph[file]?.imports ?? []) {
        if (chains.has(imported) || !through(imported)) continue;
        chains.set(imported, [...chains.get(file), file]);
        queue.push(imported);
      }
    }
  };
  walk(
    entries.filter((entry) => kept.has(entry)),
    (file) => kept.has(file),
  );
  walk(entries, () => true);
  return chains;
}

module.exports = { bundleApp };
