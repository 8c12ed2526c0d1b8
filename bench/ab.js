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
 */
const path = require("node:path");
const { execFileSync } = require("node:child_process");
const { load, fresh } = require("./lib/data");
const { batchOf, measure } = require("./lib/timer");

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

function main() {
  const [distA, distB, roundsText] = process.argv.slice(2);
  const dists = [distA, distB];
  const rounds = Number(roundsText ?? "5");
  const names = caseNames();
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

if (process.argv[2] === "--child") {
  child(process.argv[3], process.argv[4]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else main();
