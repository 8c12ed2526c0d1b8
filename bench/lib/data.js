/*
 * The route sets (copied from the shared router-bench-data, see data/README.md) and the neutral route
 * syntax, parsed once so every router adapter translates the same thing:
 * `:name` one segment, `:name(int)` an integer that falls through when it does not parse, `*` the rest.
 */
const path = require("node:path");

const SETS = ["micro", "github", "typed", "http20"];

function load(name) {
  return require(path.join(__dirname, "..", "data", `${name}.json`));
}

/** A route's parts: `{ literal }`, `{ param, int }` or `{ wildcard: true }` (last only). */
function parts(routePath) {
  return routePath
    .split("/")
    .filter((p) => p !== "")
    .map((p) => {
      if (p === "*") return { wildcard: true };
      const m = /^:([A-Za-z_][A-Za-z0-9_]*)(\(int\))?$/.exec(p);
      return m ? { param: m[1], int: m[2] !== undefined } : { literal: p };
    });
}

/** Writes a route in a router's own syntax. */
function render(routePath, { param, intParam, wildcard }) {
  const out = parts(routePath).map(
    (p) => p.literal ?? (p.wildcard ? wildcard : p.int ? intParam(p.param) : param(p.param)),
  );
  return `/${out.join("/")}`;
}

function hasInt(routes) {
  return routes.some((r) => parts(r.path).some((p) => p.int));
}

/** Fresh copies of a string: new, flat, with no cached hash, as a request parser would make. */
function fresh(s) {
  return Buffer.from(s, "latin1").toString("latin1");
}

module.exports = { SETS, load, parts, render, hasInt, fresh };
