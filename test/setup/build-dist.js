// Builds dist/ once before any test file runs, so tests that load the package by name
// (`require("switchyard-router")`) or compile samples against it never race each other's builds.
const { execFileSync } = require("node:child_process");
const path = require("node:path");

module.exports = function buildDist() {
  const root = path.resolve(__dirname, "../..");
  execFileSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
};
