/*
 * The servers of the framework benchmark: each column's label, runtime and entry script. Every entry
 * listens on 127.0.0.1, port 0, and prints its port when it is ready.
 */
const path = require("node:path");

const root = path.resolve(__dirname, "../..");
const apps = path.join(__dirname, "apps");
const switchyard = path.join(root, "dist/bench/frameworks/switchyard/server.js");
/** The same server as an ES module (dist/bench-esm): what the Bun columns run, as Hono's and Elysia's apps are. */
const switchyardEsm = path.join(root, "dist/bench-esm/bench/frameworks/switchyard/server.js");

/** A column: `key` names it on the command line, `label` in the tables. */
const target = (key, label, runtime, script, ...args) => ({ key, label, runtime, script, args });

/** The columns of the req/s and RSS tables (issue 27's, then the Fetch-adapter pair on Node). */
const LOAD_TARGETS = [
  target("switchyard", "switchyard decorated (class-validator), node:http", "node", switchyard, "decorated"),
  target("switchyard functional", "switchyard functional, node:http", "node", switchyard, "functional"),
  target("switchyard zod", "switchyard decorated (zod), node:http", "node", switchyard, "zod"),
  target("nest fastify", "NestJS 12 + Fastify", "node", path.join(apps, "nest.mjs"), "fastify"),
  target("nest express", "NestJS 12 + Express", "node", path.join(apps, "nest.mjs"), "express"),
  target(
    "routing-controllers",
    "routing-controllers 0.11 (Express)",
    "node",
    path.join(apps, "routing-controllers.js"),
  ),
  target("fastify", "Fastify 5 (JSON schema)", "node", path.join(apps, "fastify.js")),
  target("switchyard bun", "switchyard Fetch adapter, Bun", "bun", switchyardEsm, "decorated"),
  target("switchyard zod bun", "switchyard Fetch adapter (zod), Bun", "bun", switchyardEsm, "zod"),
  target("hono bun", "Hono (zod-validator), Bun", "bun", path.join(apps, "hono.mjs")),
  target("elysia bun", "Elysia 1.4 (TypeBox), Bun", "bun", path.join(apps, "elysia.mjs")),
  target("node", "bare node:http", "node", path.join(apps, "bare-node.js")),
  target(
    "switchyard fetch node",
    "switchyard Fetch adapter on @hono/node-server",
    "node",
    switchyard,
    "decorated",
    "node-fetch",
  ),
  target("hono node", "Hono (zod-validator) on @hono/node-server", "node", path.join(apps, "hono.mjs")),
];

/** The servers whose start-up is timed. */
const COLD_TARGETS = [
  target("switchyard", "switchyard decorated, Node", "node", switchyard, "decorated"),
  target("switchyard functional", "switchyard functional, Node", "node", switchyard, "functional"),
  target("switchyard bun", "switchyard decorated, Bun", "bun", switchyardEsm, "decorated"),
  target("switchyard functional bun", "switchyard functional, Bun", "bun", switchyardEsm, "functional"),
  target("switchyard zod bun", "switchyard decorated (zod), Bun", "bun", switchyardEsm, "zod"),
  target(
    "switchyard functional zod bun",
    "switchyard functional (zod, as the Hono app), Bun",
    "bun",
    switchyardEsm,
    "functional-zod",
  ),
  target("nest fastify", "NestJS 12 + Fastify, Node", "node", path.join(apps, "nest.mjs"), "fastify"),
  target("fastify", "Fastify 5, Node", "node", path.join(apps, "fastify.js")),
  target("hono bun", "Hono, Bun", "bun", path.join(apps, "hono.mjs")),
  target("elysia bun", "Elysia 1.4, Bun", "bun", path.join(apps, "elysia.mjs")),
  target("bun", "bare Bun.serve", "bun", path.join(apps, "bare-bun.js")),
  target("node", "bare node:http", "node", path.join(apps, "bare-node.js")),
];

/**
 * The Bun binary from its optional package (test/runtimes/package.json), named as
 * test/shared/runtimes.ts `runtimePackage()` names it (that helper is TypeScript; this file is not).
 */
function bunBinary() {
  const musl = process.platform === "linux" && !process.report?.getReport()?.header?.glibcVersionRuntime;
  const cpu = process.arch === "arm64" ? "aarch64" : process.arch;
  const name = `@oven/bun-${process.platform}-${cpu}${musl ? "-musl" : ""}`;
  return path.join(path.dirname(require.resolve(`${name}/package.json`, { paths: [root] })), "bin/bun");
}

/** The command line that starts a target. */
function commandOf({ runtime, script, args }) {
  if (runtime === "node") return { command: process.execPath, args: [script, ...args] };
  // Bun reads the nearest tsconfig.json's "paths" even for .js files, and the root one maps
  // "switchyard-router" to src/: with this override (no paths) Bun loads the build (dist/cjs), as Node does
  return {
    command: bunBinary(),
    args: [`--tsconfig-override=${path.join(__dirname, "bun.tsconfig.json")}`, script, ...args],
  };
}

module.exports = { LOAD_TARGETS, COLD_TARGETS, bunBinary, commandOf };
