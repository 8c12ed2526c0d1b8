/*
 * `npm run bench` step 1: installs the peer routers and the load generator (bench/package.json,
 * with its own lock file) on first use, so the library's own install never carries them.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

if (!fs.existsSync(path.join(__dirname, "node_modules", ".package-lock.json"))) {
  process.stderr.write("bench: installing the peer routers (bench/package.json)…\n");
  // run by npm: npm_execpath is its CLI script; otherwise the npm on PATH
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm]] : [process.platform === "win32" ? "npm.cmd" : "npm", []];
  execFileSync(command, [...args, "ci", "--no-audit", "--no-fund"], {
    cwd: __dirname,
    stdio: "inherit",
    shell: process.platform === "win32" && !npm,
  });
}
