"use strict";
/*
 * The runtime bundles (dist/bundle), what Node, Bun and Deno load: the ES module build (dist/esm) made
 * into a few files, because loading is what a cold start pays for and it is paid per file. Measured on
 * Node 20 (core + decorators): 148 ES modules load in 70–81 ms, these bundles in 24–32; the CommonJS
 * build's files in 48–56 ms, its bundle in 16–18; a decorated app's start 200 → 169 ms of CPU.
 * - dist/bundle/esm: every entry of package.json "exports" bundled with code splitting, so entries
 *   share one copy of the core (a decorated app's routes are the core's `Route`s, one module state);
 * - dist/bundle/cjs: the same files turned into CommonJS one by one (esbuild splits ES modules only),
 *   each chunk `require`-ing the chunks it imported.
 * The per-file builds stay what bundlers read (package.json's "default" conditions): an app bundled
 * for the edge keeps only the modules it uses, which a pre-bundled chunk would not let it do as well.
 * The optional peers stay outside, loaded where they were: class-validator and class-transformer by
 * decorators/class-validator.cjs, a CommonJS file so that it has a `require` in the ES module build too,
 * which stays a file of its own beside the bundles (inlined, its `require` would be esbuild's stand-in,
 * which ES modules do not have).
 * Source maps lead back to src/ and decorators/ (through dist/esm's maps).
 */
const { copyFileSync, mkdirSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "..");
const manifest = require(path.join(root, "package.json"));

/** Packages an app installs itself (peers) and Node's own modules: never inside a bundle. */
const EXTERNAL = [...Object.keys(manifest.peerDependencies ?? {}), "node:*"];

/** The CommonJS loader of the optional peers (see above), imported as "./class-validator.cjs". */
const LOADER = "class-validator.cjs";

/** Keeps the loader out of the bundles: every import of it names the copy beside them. */
const loaderOutside = {
  name: "loader-outside",
  setup(build) {
    build.onResolve({ filter: /\/class-validator\.cjs$/ }, () => ({ path: `./${LOADER}`, external: true }));
  },
};

/** Each "exports" subpath's bundle name (`.` → index, `./decorators` → decorators) and its dist/esm file. */
function entries(esmDir) {
  const out = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const file = target?.import?.default;
    if (typeof file !== "string" || !file.startsWith("./dist/esm/")) continue;
    out[subpath === "." ? "index" : subpath.slice(2)] = path.join(esmDir, file.slice("./dist/esm/".length));
  }
  return out;
}

/** Builds dist/bundle from the ES module build in `esmDir` into `outDir`. */
async function bundle(esmDir, outDir) {
  const esmOut = path.join(outDir, "esm");
  const cjsOut = path.join(outDir, "cjs");
  const { outputFiles } = await esbuild.build({
    entryPoints: entries(esmDir),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    outdir: esmOut,
    chunkNames: "chunk-[hash]",
    external: EXTERNAL,
    plugins: [loaderOutside],
    // inline, so that the CommonJS step below reads it and maps its output to the sources too
    sourcemap: "inline",
    sourcesContent: false,
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  mkdirSync(esmOut, { recursive: true });
  mkdirSync(cjsOut, { recursive: true });
  for (const file of outputFiles) {
    const name = path.basename(file.path);
    const esm = await esbuild.transform(file.text, { sourcemap: "external", sourcefile: name, loader: "js" });
    writeFileSync(path.join(esmOut, name), `${esm.code}//# sourceMappingURL=${name}.map\n`);
    writeFileSync(path.join(esmOut, `${name}.map`), esm.map);
    const cjs = await esbuild.transform(file.text, {
      format: "cjs",
      // "node": esbuild then lists the export names where Node's import of a CommonJS file finds them
      platform: "node",
      target: "es2022",
      sourcemap: "external",
      sourcefile: name,
      loader: "js",
    });
    writeFileSync(path.join(cjsOut, name), `${directExports(cjs.code, name)}//# sourceMappingURL=${name}.map\n`);
    writeFileSync(path.join(cjsOut, `${name}.map`), cjs.map);
  }
  for (const dir of [esmOut, cjsOut])
    for (const file of [LOADER, `${LOADER}.map`])
      copyFileSync(path.join(esmDir, "decorators", file), path.join(dir, file));
  writeFileSync(
    path.join(esmOut, "package.json"),
    `${JSON.stringify({ type: "module", sideEffects: false }, null, 2)}\n`,
  );
  writeFileSync(path.join(cjsOut, "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
}

/*
 * esbuild's CommonJS output exports a copy of the module's export object whose every property is a
 * getter reading the original by key (`__toCommonJS`): one function for all of them, so its keyed load
 * is megamorphic, and every call from one chunk into another paid it (0.25 µs of a 2.2 µs POST in process, on
 * Node 20). The module's own export object already has one getter per name (`__export`), each its own
 * function, which V8 inlines: it is exported as it is, marked as an ES module the same way.
 */
const TO_COMMONJS = /^module\.exports = __toCommonJS\((\w+)\);$/gm;

/** `code` (one file's CommonJS) exporting its export object itself; throws if esbuild's shape changed. */
function directExports(code, name) {
  const found = code.match(TO_COMMONJS) ?? [];
  if (found.length !== 1)
    throw new Error(`${name}: expected one \`module.exports = __toCommonJS(…)\`, found ${found.length}`);
  return withoutUnusedHelpers(
    code.replace(TO_COMMONJS, 'module.exports = __defProp($1, "__esModule", { value: true });'),
  );
}

/** A top-level `var __helper = …;` of esbuild's: one line, or indented lines up to a closing `};` or `));`. */
const HELPER = /^var (__\w+) = (?:[^\n]*;|[^\n]*\n(?:[ \t][^\n]*\n)*?[)}][^\n]*;)\n/gm;

/** `code` without esbuild's helpers that nothing calls (`__toCommonJS`, and what only it used). */
function withoutUnusedHelpers(code) {
  for (;;) {
    const unused = [...code.matchAll(HELPER)].find(([, helper]) => code.split(helper).length === 2);
    if (unused === undefined) return code;
    // blank lines in its place: the source map's lines stay where they were
    code = code.replace(unused[0], "\n".repeat(unused[0].split("\n").length - 1));
  }
}

module.exports = { bundle };
