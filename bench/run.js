/*
 * `npm run bench`: route lookup for switchyard and its peers (one child process per router), lookup
 * time against table size, build time and heap for the GitHub table, end-to-end req/s over node:http,
 * and the same API in switchyard and other frameworks (bench/frameworks/: req/s, resident memory after
 * the load, cold start). Prints markdown tables; `--only lookup,growth,http,frameworks,coldstart,memory`
 * runs some parts; `--rounds=N` (default 3), `--seconds=N` (each framework request's load, default 3),
 * `--servers=fastify,hono bun` (some framework servers only, by key in bench/frameworks/targets.js).
 * Quick try: `node bench/run.js --only frameworks,coldstart,memory --rounds=1 --seconds=2`.
 */
const { execFileSync, spawn } = require("node:child_process");
const path = require("node:path");
const { NAMES } = require("./lib/routers");
const { median } = require("./frameworks/stats");

/** `--name=value` or `--name value`, else the fallback. */
function option(name, fallback) {
  const args = process.argv.slice(2);
  const joined = args.find((a) => a.startsWith(`--${name}=`));
  if (joined !== undefined) return joined.slice(name.length + 3);
  const at = args.indexOf(`--${name}`);
  return at !== -1 && at + 1 < args.length ? args[at + 1] : fallback;
}
const only = option("only", "lookup,growth,http,frameworks,coldstart,memory").split(",");
/** Rounds of every suite: each round runs every router once, in the reverse order of the round before. */
const ROUNDS = Number(option("rounds", "3"));
/** Seconds of load per request and framework, in each round. */
const SECONDS = Number(option("seconds", "3"));
/** Spawns per server for the cold start: never fewer than 5, whatever the rounds. */
const SPAWNS = Math.max(5, ROUNDS);
const routersWanted = option("routers", "").split(",").filter(Boolean);
/** `--servers=a,b`: only these framework servers (by key, see bench/frameworks/targets.js), and the reference. */
const serversWanted = option("servers", "").split(",").filter(Boolean);
const node = process.execPath;

function child(script, args) {
  const out = execFileSync(node, ["--expose-gc", path.join(__dirname, script), ...args], {
    encoding: "utf8",
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split("\n").at(-1));
}

/**
 * `run(name)` for every name, `count` times (ROUNDS unless told), A/B/A/B with the order reversed every
 * round, so that a noisy minute on a shared machine lands on every router alike. Results by name, in
 * round order.
 */
async function interleaved(suite, names, run, count = ROUNDS) {
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < count; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      process.stderr.write(`${suite}: ${name} (round ${round + 1} of ${count})…\n`);
      rounds[name].push(await run(name));
    }
  }
  return rounds;
}
const fmt = (ns) => (ns >= 1000 ? Math.round(ns).toLocaleString("en-US") : ns.toFixed(0));
/** The median over rounds of one case, or the error of a round that failed. */
function overRounds(rounds) {
  const failed = rounds.find((r) => r === undefined || !("ns" in r));
  return failed ?? { ns: median(rounds.map((r) => r.ns)), rounds: rounds.map((r) => r.ns) };
}
const cell = (r) => ("ns" in r ? fmt(r.ns) : r.error);
const selected = (names) =>
  routersWanted.length === 0 ? names : names.filter((n) => n === "switchyard" || routersWanted.includes(n));
const selectedServers = (targets) =>
  serversWanted.length === 0 ? targets : targets.filter((t) => t.key === "switchyard" || serversWanted.includes(t.key));

/** The cases whose rounds are printed: the lists a user compares routers by. */
const HEADLINE = { micro: "all together (7 classic)", github: "mix (hits+404, shuffled)", typed: "all together" };

async function lookups() {
  const names = selected(NAMES);
  const byRouter = await interleaved("lookup", names, (name) => child("lookup.js", [name]));
  for (const set of ["micro", "github", "typed"]) {
    const cases = Object.keys(byRouter[names[0]][0].sets[set]);
    console.log(`\n### ${set}: ns per lookup (median of ${ROUNDS} rounds)\n`);
    console.log(`| case | ${names.join(" | ")} | switchyard ÷ fastest peer |`);
    console.log(`|---|${names.map(() => "---:").join("|")}|---:|`);
    for (const c of cases) {
      const row = names.map((name) => overRounds(byRouter[name].map((r) => r.sets[set][c])));
      const peers = row
        .slice(1)
        .filter((r) => "ns" in r)
        .map((r) => r.ns);
      const best = Math.min(...peers);
      const ratio =
        "ns" in row[0] && peers.length > 0
          ? `${(row[0].ns / best).toFixed(2)}× (${names[1 + row.slice(1).findIndex((r) => r.ns === best)]})`
          : "–";
      console.log(`| ${c} | ${row.map(cell).join(" | ")} | ${ratio} |`);
    }
    for (const name of names)
      for (const [c, v] of Object.entries(byRouter[name][0].sets[set]))
        if (v.detail) console.log(`\n- ${name}, ${c}: ${v.detail}`);
  }
  console.log(`\n### Rounds of the headline lists (ns per lookup, in run order)\n`);
  console.log(
    `| router | ${Object.entries(HEADLINE)
      .map(([set, c]) => `${set}: ${c}`)
      .join(" | ")} |`,
  );
  console.log(
    `|---|${Object.keys(HEADLINE)
      .map(() => "---:")
      .join("|")}|`,
  );
  for (const name of names) {
    const cells = Object.entries(HEADLINE).map(([set, c]) => {
      const r = overRounds(byRouter[name].map((round) => round.sets[set][c]));
      return "ns" in r ? r.rounds.map(fmt).join(" / ") : r.error;
    });
    console.log(`| ${name} | ${cells.join(" | ")} |`);
  }
  console.log(`\n### GitHub table (516 routes): build time and heap (median of ${ROUNDS} rounds)\n`);
  console.log("| router | first build (ms) | median of 5 rebuilds (ms) | heap retained |");
  console.log("|---|---:|---:|---:|");
  for (const name of names) {
    const builds = byRouter[name].map((r) => r.build);
    if (builds[0].error) {
      console.log(`| ${name} | ${builds[0].error} | | |`);
      continue;
    }
    const heap = builds.every((b) => b.heapBytes !== null)
      ? `${(median(builds.map((b) => b.heapBytes)) / 1024).toFixed(0)} KiB`
      : "–";
    console.log(
      `| ${name} | ${median(builds.map((b) => b.firstMs)).toFixed(1)} | ${median(builds.map((b) => b.medianMs)).toFixed(1)} | ${heap} |`,
    );
  }
}

async function growth() {
  const names = selected(["switchyard", "memoirist", "find-my-way", "find-my-way compiled"]);
  const byRouter = await interleaved("growth", names, (name) => child("growth.js", [name]));
  const sizes = [10, 100, 1000, 10000];
  console.log(
    `\n### Lookup time against table size (ns per lookup, fresh strings; same path shape at every size; median of ${ROUNDS} rounds)\n`,
  );
  console.log(
    "| router | 10 | 100 | 1,000 | 10,000 | 10,000 ÷ 100 | 10,000 ÷ 10 | build of 10,000 (ms) | rounds (10 / 100 / 1,000 / 10,000) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const name of names) {
    const g = Object.fromEntries(
      sizes.map((size) => [size, median(byRouter[name].map((round) => round.growth[size]))]),
    );
    const rounds = sizes.map((size) => byRouter[name].map((round) => fmt(round.growth[size])).join(", ")).join(" / ");
    const build = median(byRouter[name].map((round) => round.buildMs[10000]));
    console.log(
      `| ${name} | ${sizes.map((size) => fmt(g[size])).join(" | ")} | ${(g[10000] / g[100]).toFixed(2)}× | ${(g[10000] / g[10]).toFixed(2)}× | ${build.toFixed(0)} | ${rounds} |`,
    );
  }
}

/** req/s of one server for `seconds`, after a warm-up, with autocannon in this process. */
async function load(kind, seconds) {
  const autocannon = require("autocannon");
  const server = spawn(node, [path.join(__dirname, "server.js"), kind], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve) => server.stdout.once("data", (d) => resolve(Number(String(d).trim()))));
  const url = `http://127.0.0.1:${port}/posts/12345/comments`;
  try {
    await autocannon({ url, connections: 50, duration: 1 });
    const result = await autocannon({ url, connections: 50, duration: seconds });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requests.average;
  } finally {
    server.kill();
  }
}

async function http() {
  const kinds = ["raw", "switchyard", "find-my-way", "fastify", "express", "switchyard fetch", "hono"];
  const totals = await interleaved("http", kinds, (kind) => load(kind, 5));
  const raw = median(totals.raw);
  console.log(
    `\n### End to end over node:http on 127.0.0.1 (autocannon, 50 connections; ${ROUNDS} interleaved rounds of 5 s, each after 1 s of warm-up; GET /posts/12345/comments, 20-route table)\n`,
  );
  console.log("| server | req/s (median of rounds) | rounds | share of raw node:http |");
  console.log("|---|---:|---|---:|");
  for (const kind of kinds) {
    const label =
      {
        raw: "raw node:http (no router)",
        "find-my-way": "node:http + find-my-way",
        "switchyard fetch": "switchyard Fetch adapter (toFetch) on @hono/node-server",
        hono: "Hono on @hono/node-server",
      }[kind] ?? kind;
    console.log(
      `| ${label} | ${Math.round(median(totals[kind])).toLocaleString("en-US")} | ${totals[kind].map((x) => Math.round(x)).join(", ")} | ${((100 * median(totals[kind])) / raw).toFixed(1)}% |`,
    );
  }
}

/**
 * The package's build and the switchyard apps of bench/frameworks compiled against it: as CommonJS
 * (dist/bench, the Node columns) and as ES modules (dist/bench-esm, the Bun columns: Bun tells an ES
 * module by its syntax, and a package.json saying so would end the package's scope, so that
 * "switchyard-router" no longer named the package itself).
 */
function buildForFrameworks() {
  const root = path.resolve(__dirname, "..");
  process.stderr.write("frameworks: building the package and the switchyard apps…\n");
  execFileSync(node, [path.join(root, "scripts/build.js")], { cwd: root, stdio: "inherit" });
  for (const config of ["bench/frameworks/tsconfig.json", "bench/frameworks/tsconfig.esm.json"])
    execFileSync(node, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", config], {
      cwd: root,
      stdio: "inherit",
    });
}

/** A round that failed is recorded with its error, and the run goes on (the tables show it). */
const recorded = (promise) =>
  promise.catch((error) => {
    process.exitCode = 1;
    process.stderr.write(`${error.stack ?? error}\n`);
    return { error: String(error.message ?? error).replace(/\n\s*/g, "; ") };
  });

/** The same API in each framework under load (req/s), and each server's memory after it. */
async function frameworks() {
  const LOAD_TARGETS = selectedServers(require("./frameworks/targets").LOAD_TARGETS);
  const { loadOnce } = require("./frameworks/load");
  const { printLoad, printMemory, printPair } = require("./frameworks/report");
  const byKey = Object.fromEntries(LOAD_TARGETS.map((t) => [t.key, t]));
  const results = await interleaved("frameworks", Object.keys(byKey), (key) => recorded(loadOnce(byKey[key], SECONDS)));
  if (only.includes("frameworks")) {
    printLoad(LOAD_TARGETS, results, { rounds: ROUNDS, seconds: SECONDS });
    printPair(LOAD_TARGETS, results, "switchyard fetch node", "hono node");
  }
  if (only.includes("memory")) printMemory(LOAD_TARGETS, results);
}

async function coldStart() {
  const COLD_TARGETS = selectedServers(require("./frameworks/targets").COLD_TARGETS);
  const { coldStartOnce } = require("./frameworks/coldstart");
  const { printColdStart } = require("./frameworks/report");
  const byKey = Object.fromEntries(COLD_TARGETS.map((t) => [t.key, t]));
  const results = await interleaved(
    "coldstart",
    Object.keys(byKey),
    (key) => recorded(coldStartOnce(byKey[key])),
    SPAWNS,
  );
  printColdStart(COLD_TARGETS, results, SPAWNS);
}

async function main() {
  console.log(
    `Node ${process.version}, ${require("node:os").cpus().length} CPUs (${require("node:os").cpus()[0]?.model ?? "?"}), ${new Date().toISOString()}`,
  );
  console.log(`${ROUNDS} rounds per suite, interleaved (A/B/A/B, order reversed every round)`);
  if (only.includes("lookup")) await lookups();
  if (only.includes("growth")) await growth();
  if (only.includes("http")) await http();
  if (["frameworks", "coldstart", "memory"].some((part) => only.includes(part))) {
    buildForFrameworks();
    const bun = require("./frameworks/targets").bunBinary();
    console.log(`\nBun ${execFileSync(bun, ["--version"], { encoding: "utf8" }).trim()} for the Bun servers`);
  }
  if (only.includes("frameworks") || only.includes("memory")) await frameworks();
  if (only.includes("coldstart")) await coldStart();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
