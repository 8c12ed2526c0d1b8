/*
 * `npm run bench` step 1: installs the peer routers, the frameworks and the load generator
 * (bench/package.json, with its own lock file) on first use, and again when the lock file names a
 * package version that is not the one installed, so the library's own install never carries them.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

/** True when every package of bench/package-lock.json is installed at its locked version. */
function upToDate() {
  const installed = path.join(__dirname, "node_modules", ".package-lock.json");
  if (!fs.existsSync(installed)) return false;
  const have = JSON.parse(fs.readFileSync(installed, "utf8")).packages;
  const want = JSON.parse(fs.readFileSync(path.join(__dirname, "package-lock.json"), "utf8")).packages;
  return Object.entries(want).every(
    ([where, { version, optional }]) => where === "" || optional || have[where]?.version === version,
  );
}

if (!upToDate()) {
  process.stderr.write("bench: installing the peer routers and frameworks (bench/package.json)…\n");
  // run by npm: npm_execpath is its CLI script; otherwise the npm on PATH
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : [process.platform === "win32" ? "npm.cmd" : "npm", []];
  execFileSync(command, [...args, "ci", "--no-audit", "--no-fund"], {
    cwd: __dirname,
    stdio: "inherit",
    shell: process.platform === "win32" && !npm,
  });
}
