"use strict";
/*
 * `npm run build`: the CommonJS build (dist/cjs) and the ES module build (dist/esm) of src/ and
 * decorators/, each with its .d.ts files. dist/esm gets a package.json saying `"type": "module"`,
 * so Node and TypeScript read the .js and .d.ts files there as ES modules. Old output is removed
 * first: a file whose source is gone must not be packed.
 */
const { execFile } = require("node:child_process");
const { mkdirSync, rmSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { promisify } = require("node:util");

const root = path.resolve(__dirname, "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const builds = [
  { config: "tsconfig.build.json", outDir: "dist/cjs" },
  { config: "tsconfig.build.esm.json", outDir: "dist/esm", type: "module" },
];

async function build() {
  for (const { outDir } of builds) rmSync(path.join(root, outDir), { recursive: true, force: true });
  await Promise.all(builds.map(({ config }) => compile(config)));
  for (const { outDir, type } of builds) {
    if (type === undefined) continue;
    mkdirSync(path.join(root, outDir), { recursive: true });
    writeFileSync(path.join(root, outDir, "package.json"), `${JSON.stringify({ type }, null, 2)}\n`);
  }
}

async function compile(config) {
  try {
    await promisify(execFile)(process.execPath, [tsc, "-p", config], { cwd: root });
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
