"use strict";
/*
 * Same-process A/B of switchyard builds: `node bench/ab.js <dist index.js> <dist index.js> [rounds]`.
 * Each build is its own module instance (its own functions and JIT feedback); the headline lists and
 * the growth sizes are timed build after build, the order reversed every round, and the medians
 * printed. On a shared machine this tells two builds apart far better than two child runs.
 * `AB_ONLY=github,growth 10` (substrings of the case names, comma-separated) builds and times only those cases;
 * `AB_SIZES=10,256` sets the growth table sizes.
 */
const path = require("node:path");
const { load, fresh } = require("./lib/data");
const { batchOf } = require("./lib/timer");

const [distA, distB, roundsText] = process.argv.slice(2);
const ROUNDS = Number(roundsText ?? "5");

/** A fresh instance of a module, so that no call site of it sees the other build's functions. */
function instance(name) {
  delete require.cache[require.resolve(name)];
  return require(name);
}

/** One build: its adapter and a timer of its own. */
function buildOf(dist) {
  process.env.SWITCHYARD_DIST = path.resolve(dist);
  return { adapter: instance("./lib/routers").adapters.switchyard(), measure: instance("./lib/timer").measure };
}

function growthTable(size) {
  const width = Math.ceil(Math.sqrt(size));
  return Array.from({ length: size }, (_, id) => ({ id, method: "GET", path: `/r${id % width}/items/:id/v${Math.floor(id / width)}` }));
}

/** The cases: [name, routes, requests as [method, path]]. */
function cases() {
  const out = [];
  const list = (set, name) => {
    const data = load(set);
    out.push([`${set}: ${name}`, data.routes, data.lists[name].map((i) => [data.requests[i].method, data.requests[i].path])]);
  };
  list("micro", "all together (7 classic)");
  list("typed", "all together");
  list("github", "mix (hits+404, shuffled)");
  for (const size of (process.env.AB_SIZES ?? "10,100,1000,10000").split(",").map(Number)) {
    const routes = growthTable(size);
    const requests = [];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      requests.push(["GET", routes[seed % size].path.replace(":id", String(i))]);
    }
    for (let i = 0; i < 20; i++) requests.push(["GET", `/r${i}/items/${i}/none`]);
    out.push([`growth ${size}`, routes, requests]);
  }
  return out;
}

async function main() {
  const builds = [distA, distB].map(buildOf);
  const all = cases()
    .filter(([name]) => (process.env.AB_ONLY ?? "").split(",").some((part) => name.includes(part)))
    .map(([name, routes, requests]) => ({ name, routers: builds.map((b) => b.adapter.build(routes)), batch: batchOf(requests), ns: [[], []] }));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const c of all) {
      for (const b of order) c.ns[b].push(await builds[b].measure(c.routers[b].lookup, () => c.batch.map(([m, p]) => [m, fresh(p)]), false));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  console.log(`| case | A ${distA} | B ${distB} | B ÷ A |`);
  for (const c of all) {
    const [a, b] = c.ns.map(median);
    console.log(`| ${c.name} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)} |`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
