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
 * `AB_COUNT=1` counts instead of timing: each build's child runs under callgrind
 * (bench/lib/callgrind.js) and the table gives instructions per lookup, which the load on the machine
 * does not move; `AB_COUNT=cache` adds simulated first-level data misses. One run per build and case.
 * Build cases, only when `AB_ONLY` names them (`AB_ONLY=build`, `AB_ONLY="build: github"`): building a
 * table as `npm run bench` does (`build: …`: the tree and `compile`) or the tree alone (`tree: …`), for
 * the GitHub table and the growth tables of `AB_BUILD_SIZES` (1000,10000); `tree: nested match` builds
 * routes under nested `match` prefixes (see `nestedMatch`). Timed, each child gives the
 * first build of a fresh process and the median of 5 rebuilds (µs); counted, the first build (cold: a
 * child with one build less the same child with none) and a warm build (the mean of 10 after 10).
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
  const parts = (process.env.AB_ONLY ?? "").split(",");
  const builds = (process.env.AB_BUILD_SIZES ?? "1000,10000")
    .split(",")
    .flatMap((size) => [`build: growth ${size}`, `tree: growth ${size}`]);
  // build cases only when named: a plain run's table stays the lookup cases
  const named = parts.filter((part) => part.startsWith("build") || part.startsWith("tree"));
  return [
    ...names.filter((name) => parts.some((part) => name.includes(part))),
    ...["build: github", "tree: github", ...builds, "tree: nested match"].filter((name) =>
      named.some((part) => name.includes(part)),
    ),
  ];
}

const isBuild = (name) => name.startsWith("build: ") || name.startsWith("tree: ");

/** A build case's table, and a function building it with one switchyard build (the tree alone for `tree:`). */
function builderOf(dist, name) {
  process.env.SWITCHYARD_DIST = path.resolve(dist);
  if (name === "tree: nested match") return nestedMatch(require(path.resolve(dist)));
  const { adapters } = require("./lib/routers");
  const table = name.slice(name.indexOf(": ") + 2);
  const routes = table === "github" ? load("github").routes : growthTable(Number(table.slice("growth ".length)));
  const adapter = adapters.switchyard();
  return name.startsWith("tree: ") ? () => adapter.tree(routes) : () => adapter.build(routes);
}

/**
 * `tree: nested match`: 500 routes under 20 nested `match` prefixes, each with a variable
 * (`match("/l0/v0:Int", alt(25 routes, match("/l1/v1:Int", …)))`), written as controllers nest: each
 * prefix's label checks read the routes inside it.
 */
function nestedMatch(sy) {
  const handler = () => null;
  return () => {
    let inner = null;
    for (let level = 19; level >= 0; level--) {
      const routes = Array.from({ length: 25 }, (_, i) => sy.route(`GET /r${i}/id${i}:Int/x`, handler));
      if (inner !== null) routes.push(inner);
      inner = sy.match(`/l${level}/v${level}:Int`, sy.alt(...routes));
    }
    return inner;
  };
}

/** In a child: times the first build of one case, then 5 rebuilds; prints both in µs (the rebuilds' median). */
function buildTimes(dist, name) {
  const build = builderOf(dist, name);
  const micros = () => {
    const started = process.hrtime.bigint();
    build();
    return Number(process.hrtime.bigint() - started) / 1e3;
  };
  const first = micros();
  const again = Array.from({ length: 5 }, micros).sort((a, b) => a - b);
  process.stdout.write(`${first} ${again[2]}\n`);
}

/**
 * In a child under callgrind: builds one case's table, a number of times told by `batches` (what
 * `countPerLookup` passes: FEW = 100, then MANY = 200): cold, `batches ÷ 100 − 1` builds (0, then 1);
 * warm, 10 builds (the optimizing compiler's work mostly done) and then `batches ÷ 10 − 10` more (0,
 * then 10).
 */
function buildLoop(dist, name, warmth, batches) {
  const build = builderOf(dist, name);
  const builds = warmth === "cold" ? Number(batches) / 100 - 1 : Number(batches) / 10 - 10;
  if (warmth === "warm") for (let i = 0; i < 10; i++) build();
  let kept = 0;
  for (let i = 0; i < builds; i++) if (build() !== null) kept++;
  process.stdout.write(`${kept}\n`);
}

/** `AB_COUNT` for the build cases: instructions of a cold first build and of a warm one, on both builds. */
function countBuilds(dists, names) {
  console.log(`| case (instructions per build) | A ${dists[0]} | B ${dists[1]} | B ÷ A |`);
  console.log("|---|---:|---:|---:|");
  for (const name of names.filter(isBuild)) {
    // countPerLookup divides the two runs' difference by 100 × "lookups": 1 build cold, 10 warm
    for (const [warmth, per] of [
      ["cold", 0.01],
      ["warm", 0.1],
    ]) {
      const [a, b] = dists.map((dist) => countPerLookup(__filename, ["--build-loop", dist, name, warmth], per).Ir);
      console.log(`| ${name} (${warmth}) | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(3)} |`);
    }
  }
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
  if (isBuild(name)) return buildTimes(dist, name);
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
  for (const name of names.filter((name) => !name.startsWith("e2e: ") && !isBuild(name))) {
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
  if (process.env.AB_COUNT) {
    if (names.some((name) => !isBuild(name))) count(dists, names, process.env.AB_COUNT === "cache");
    if (names.some(isBuild)) countBuilds(dists, names);
    return;
  }
  // a build case gives two rows: its first build and its rebuilds (µs)
  const rows = names.flatMap((name) => (isBuild(name) ? [`${name}, first (µs)`, `${name}, rebuilds (µs)`] : [name]));
  const ns = new Map(rows.map((row) => [row, [[], []]]));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const name of names) {
      for (const b of order) {
        const out = execFileSync(process.execPath, [__filename, "--child", dists[b], name]).toString();
        if (!isBuild(name)) ns.get(name)[b].push(Number(out));
        else {
          const [first, rebuilds] = out.split(" ").map(Number);
          ns.get(`${name}, first (µs)`)[b].push(first);
          ns.get(`${name}, rebuilds (µs)`)[b].push(rebuilds);
        }
      }
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
else if (process.argv[2] === "--build-loop")
  buildLoop(process.argv[3], process.argv[4], process.argv[5], process.argv[6]);
else if (process.argv[2] === "--child") {
  child(process.argv[3], process.argv[4]).catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else main();
