/*
 * Build time of the route tools (issue 9) on the route tables: `routes`, `shadowed` and `openapi`
 * over the tree each table makes (as bench/lib/routers.js builds it). Prints the first (cold) run and
 * the median of 20 warm runs, in milliseconds. Run after `npm run build`: node bench/route-tools.js
 */
const { performance } = require("node:perf_hooks");
const { load } = require("./lib/data");
const sy = require("../dist/cjs/src/index.js");

process.env.SWITCHYARD_DIST ??= require.resolve("../dist/cjs/src/index.js");
const treeOf = require("./lib/routers").adapters.switchyard().tree;

function time(f) {
  const start = performance.now();
  f();
  return performance.now() - start;
}

const tools = {
  routes: (tree) => sy.routes(tree),
  shadowed: (tree) => sy.shadowed(tree),
  openapi: (tree) => sy.openapi(tree, { info: { title: "bench", version: "1" } }),
};

for (const set of ["github", "typed", "http20", "micro"]) {
  const { routes } = load(set);
  const tree = treeOf(routes);
  const cells = Object.entries(tools).map(([name, tool]) => {
    const cold = time(() => tool(tree));
    const warm = Array.from({ length: 20 }, () => time(() => tool(tree))).sort((a, b) => a - b)[10];
    return `${name} ${cold.toFixed(1)} / ${warm.toFixed(1)}`;
  });
  console.log(
    `${set} (${routes.length} routes, ${sy.shadowed(tree).length} caught): ${cells.join(", ")} ms (cold / warm median)`,
  );
}
