/*
 * A/B of two switchyard builds: `node bench/ab.js <dist index.js> <dist index.js> [rounds]`.
 * Every case of every round is timed in a fresh child process per build (`--child`), the two builds
 * one after the other, the order reversed every round; the medians and the rounds are printed.
 * Children, not one process for both builds: in one process the two builds' JIT feedback and inlining
 * interfered (the same build against a copy of itself measured 0.91 on the classic list), where
 * children repeat within a few percent.
 * `AB_ONLY=github,growth 10` (substrings of the case names, comma-separated) times only those cases;
 * `AB_SIZES=10,256` sets the growth table sizes.
 * The `e2e:` cases time whole requests through the pipeline (`pipeline(tree)(request)`: the request
 * object, dispatch, the handler, its reply) on the classic list's routes, plain and under one
 * transparent middleware (a build without `use` prints NaN there).
 * `AB_COUNT=1` counts instead of timing (lookup cases only): each build's child runs under callgrind
 * (bench/lib/callgrind.js) and the table gives instructions per lookup, which the load on the machine
 * does not move; `AB_COUNT=cache` adds simulated first-level data misses. One run per build and case.
 */
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { load, fresh } = require("./lib/data");
const { batchOf, measure } = require("./lib/timer");
const { countPerLookup } = require("./lib/callgrind");

function growthTable(size) {
  const width = Math.ceil(Math.sqrt(size));
  return Array.from({ length: size }, (_, id) => ({
    id,
    method: "GET",
    path: `/r${id % width}/items/:id/v${Math.floor(id / width)}`,
  }));
}

/** The case names, in the order they are printed. */
function caseNames() {
  const sizes = (process.env.AB_SIZES ?? "10,100,1000,10000").split(",");
  const names = [
    "micro: all together (7 classic)",
    "typed: all together",
    "github: mix (hits+404, shuffled)",
    ...sizes.map((size) => `growth ${size}`),
    "e2e: classic routes, no middleware",
    "e2e: classic routes, one middleware around all",
  ];
  return names.filter((name) => (process.env.AB_ONLY ?? "").split(",").some((part) => name.includes(part)));
}

/** A case's routes and requests (as [method, path]). */
function caseOf(name) {
  if (name.startsWith("growth ")) {
    const size = Number(name.slice("growth ".length));
    const routes = growthTable(size);
    const requests = [];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      requests.push(["GET", routes[seed % size].path.replace(":id", String(i))]);
    }
    for (let i = 0; i < 20; i++) requests.push(["GET", `/r${i}/items/${i}/none`]);
    return { routes, requests };
  }
  const [set, list] = name.split(": ");
  const data = load(set);
  return {
    routes: data.routes,
    requests: data.lists[list].map((i) => [data.requests[i].method, data.requests[i].path]),
  };
}

/** In a child: times whole requests through the pipeline of one build, prints ns per request. */
async function endToEnd(dist, name) {
  const sy = require(path.resolve(dist));
  const wrapped = name.includes("one middleware");
  if (wrapped && typeof sy.use !== "function") return process.stdout.write("NaN\n");
  const { adapters } = require("./lib/routers");
  const { routes, requests } = caseOf("micro: all together (7 classic)");
  const tree = adapters.switchyard().tree(routes);
  const handle = sy.pipeline(wrapped ? sy.use((_req, next) => next(), tree) : tree);
  const answer = async (method, url) => {
    const reply = await handle({ method, url });
    return reply === null ? null : reply.status;
  };
  const batch = batchOf(requests);
  process.stdout.write(`${await measure(answer, () => batch.map(([m, p]) => [m, fresh(p)]), true)}\n`);
}

/** In a child: times one case on one build, prints ns per lookup. */
async function child(dist, name) {
  process.env.SWITCHYARD_DIST = path.resolve(dist);
  if (name.startsWith("e2e: ")) return endToEnd(dist, name);
  const { adapters } = require("./lib/routers");
  const { routes, requests } = caseOf(name);
  const router = adapters.switchyard().build(routes);
  const batch = batchOf(requests);
  process.stdout.write(`${await measure(router.lookup, () => batch.map(([m, p]) => [m, fresh(p)]), false)}\n`);
}

/** In a child under callgrind: the lookups of one case on one build, `batches` times over, untimed. */
function loop(dist, name, batches) {
  process.env.SWITCHYARD_DIST = path.resolve(dist);
  const { adapters } = require("./lib/routers");
  const { routes, requests } = caseOf(name);
  const lookup = adapters.switchyard().build(routes).lookup;
  // a few sets of fresh strings, made before the counted batches and taken in turn
  const sets = Array.from({ length: 8 }, () => requests.map(([m, p]) => [m, fresh(p)]));
  let found = 0;
  for (let b = 0; b < Number(batches); b++) found += lookups(lookup, sets[b & 7]);
  process.stdout.write(`${found}\n`);
}

/** One batch (a function of its own, so V8 optimizes it as the timed code is). */
function lookups(lookup, batch) {
  let found = 0;
  for (let i = 0; i < batch.length; i++) if (lookup(batch[i][0], batch[i][1]) !== null) found++;
  return found;
}

/** `AB_COUNT`: events per lookup of each lookup case on both builds, counted by callgrind. */
function count(dists, names, cache) {
  const head = cache ? "instructions / D1 misses per lookup" : "instructions per lookup";
  console.log(`| case (${head}) | A ${dists[0]} | B ${dists[1]} | B ÷ A (instructions) |`);
  console.log("|---|---:|---:|---:|");
  for (const name of names.filter((name) => !name.startsWith("e2e: "))) {
    const [a, b] = dists.map((dist) =>
      countPerLookup(__filename, ["--loop", dist, name], caseOf(name).requests.length, cache),
    );
    const shown = (c) => (cache ? `${c.Ir.toFixed(0)} / ${c.D1mr.toFixed(1)}` : c.Ir.toFixed(0));
    console.log(`| ${name} | ${shown(a)} | ${shown(b)} | ${(b.Ir / a.Ir).toFixed(3)} |`);
  }
}

function main() {
  const [distA, distB, roundsText] = process.argv.slice(2);
  const dists = [distA, distB];
  const rounds = Number(roundsText ?? "5");
  const names = caseNames();
  if (process.env.AB_COUNT) return count(dists, names, process.env.AB_COUNT === "cache");
  const ns = new Map(names.map((name) => [name, [[], []]]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const name of names) {
      for (const b of order)
        ns.get(name)[b].push(
          Number(execFileSync(process.execPath, [__filename, "--child", dists[b], name]).toString()),
        );
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const shown = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
  console.log(`| case | A ${distA} | B ${distB} | B ÷ A | rounds A | rounds B |`);
  console.log("|---|---:|---:|---:|---|---|");
  for (const [name, [a, b]] of ns) {
    console.log(
      `| ${name} | ${median(a).toFixed(0)} | ${median(b).toFixed(0)} | ${(median(b) / median(a)).toFixed(2)} | ${shown(a)} | ${shown(b)} |`,
    );
  }
}

if (process.argv[2] === "--loop") loop(process.argv[3], process.argv[4], process.argv[5]);
else if (process.argv[2] === "--child") {
  child(process.argv[3], process.argv[4]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else main();
