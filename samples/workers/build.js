/*
 * Builds the Workers bundle of the controllers sample (`node samples/workers/build.js`, or wrangler's
 * build step). Two steps, because esbuild does not emit the `design:paramtypes` metadata the
 * decorators read: tsc compiles worker.ts and the controllers with the metadata (tsconfig.json), then
 * esbuild bundles tsc's JavaScript into one ES module, wrangler.toml's `main`.
 */
const { execFileSync } = require("node:child_process");
const path = require("node:path");
const esbuild = require("esbuild");

const root = path.resolve(__dirname, "../..");
const compiled = path.join(root, "dist/samples-workers/workers/worker.js");
const bundle = path.join(root, "dist/workers/worker.js");

execFileSync(
  process.execPath,
  [path.join(root, "node_modules/typescript/bin/tsc"), "-p", path.join(__dirname, "tsconfig.json")],
  { cwd: root, stdio: "inherit" },
);
esbuild
  .build({
    entryPoints: [compiled],
    outfile: bundle,
    bundle: true,
    format: "esm",
    // what wrangler resolves packages with
    platform: "browser",
    conditions: ["workerd", "worker"],
    target: "es2022",
    // class names survive (esbuild renames clashing ones otherwise): the DTOs' names name their OpenAPI schemas
    keepNames: true,
    logLevel: "warning",
  })
  .then(() => process.stdout.write(`built ${path.relative(process.cwd(), bundle)}\n`))
  .catch(() => {
    process.exitCode = 1;
  });
