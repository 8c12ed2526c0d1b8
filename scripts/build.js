"use strict";
/*
 * `npm run build`: the CommonJS build (dist/cjs) and the ES module build (dist/esm) of src/ and
 * decorators/, each with its .d.ts files, and the runtime bundles (dist/bundle) made from dist/esm.
 * dist/esm gets a package.json saying `"type": "module"`, so Node and TypeScript read the .js and .d.ts
 * files there as ES modules, and `"sideEffects": false` as the root one does (a bundler reads the
 * nearest package.json: without it, an unused module that was imported stays in the bundle). Each build
 * is made in a folder of its own and then takes the old one's place, so a file whose source is gone is
 * never packed, and a test reading dist/ while another process builds never sees it half empty.
 */
const { execFile } = require("node:child_process");
const { mkdirSync, renameSync, rmSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { promisify } = require("node:util");
const { bundle } = require("./bundle.js");

const root = path.resolve(__dirname, "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const builds = [
  { config: "tsconfig.build.json", outDir: "dist/cjs" },
  { config: "tsconfig.build.esm.json", outDir: "dist/esm", type: "module" },
];
/** Every folder a build makes, each made aside and then swapped in. */
const outDirs = [...builds.map((b) => b.outDir), "dist/bundle"];

async function build() {
  const fresh = (outDir) => path.join(root, `${outDir}.building-${process.pid}`);
  try {
    await Promise.all(builds.map(({ config, outDir }) => compile(config, fresh(outDir))));
    for (const { outDir, type } of builds)
      if (type !== undefined)
        writeFileSync(
          path.join(fresh(outDir), "package.json"),
          `${JSON.stringify({ type, sideEffects: false }, null, 2)}\n`,
        );
    await bundle(fresh("dist/esm"), fresh("dist/bundle"));
  } catch (error) {
    for (const outDir of outDirs) rmSync(fresh(outDir), { recursive: true, force: true });
    throw error;
  }
  for (const outDir of outDirs) {
    const target = path.join(root, outDir);
    const old = `${target}.old-${process.pid}`;
    mkdirSync(path.dirname(target), { recursive: true });
    try {
      renameSync(target, old);
    } catch {
      // no earlier build
    }
    renameSync(fresh(outDir), target);
    rmSync(old, { recursive: true, force: true });
  }
}

async function compile(config, outDir) {
  try {
    await promisify(execFile)(process.execPath, [tsc, "-p", config, "--outDir", outDir], { cwd: root });
  } catch (error) {
    // tsc reports type errors on stdout
    throw new Error(`tsc -p ${config} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`, { cause: error });
  }
}

module.exports = { build };

if (require.main === module) {
  build().catch((error) => {
    console.error(error.message);
    process.exitCode = 1;
  });
}
