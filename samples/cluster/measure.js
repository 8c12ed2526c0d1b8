/*
 * How the cluster sample scales from 1 worker to 2 on this machine: `node samples/cluster/measure.js`
 * (options: --rounds N, --seconds S, --connections C, --path /PATH). Each round starts the cluster
 * with 1 and with 2 workers, in alternating order, and loads each with autocannon (bench/node_modules,
 * installed by bench/install.js) for S seconds after 1 s of warm-up; prints a markdown table of req/s.
 * autocannon runs in this process, on the same cores as the workers: on a 2-core machine it takes
 * part of the second core, so the ratio understates what 2 cores give a server of its own.
 */
const { execFileSync, spawn } = require("node:child_process");
const { existsSync } = require("node:fs");
const path = require("node:path");
const { parseArgs } = require("node:util");

const root = path.resolve(__dirname, "../..");
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    path: { type: "string", default: "/api/users/2" },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);

/** The package's build, the cluster compiled by tsc, and autocannon. */
function prepare() {
  const node = (args) => execFileSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (!existsSync(path.join(root, "dist/cjs/decorators/index.js"))) node(["scripts/build.js"]);
  node([path.join(root, "node_modules/typescript/bin/tsc"), "-p", "samples/cluster/tsconfig.json"]);
  node(["bench/install.js"]);
  return require(path.join(root, "bench/node_modules/autocannon"));
}

/** Starts the cluster with `workers` workers; resolves with its URL and a `stop()` that waits for its exit. */
function startCluster(workers) {
  const primary = spawn(process.execPath, [path.join(root, "dist/samples-cluster/cluster/server.js")], {
    cwd: root,
    env: { ...process.env, WORKERS: String(workers), PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => primary.once("exit", resolve));
  const stop = () => {
    primary.kill("SIGTERM");
    return exited;
  };
  return new Promise((resolve, reject) => {
    let output = "";
    primary.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (found !== null) resolve({ url: found[1], stop });
    });
    exited.then((code) => reject(new Error(`the cluster exited (${code}) before listening:\n${output}`)));
  });
}

/** req/s of a cluster of `workers` for SECONDS, after 1 s of warm-up. */
async function measure(autocannon, workers) {
  const cluster = await startCluster(workers);
  try {
    const url = `${cluster.url}${values.path}`;
    await autocannon({ url, connections: CONNECTIONS, duration: 1 });
    const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${result.errors} errors, ${result.non2xx} non-2xx`);
    return result.requests.average;
  } finally {
    await cluster.stop();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The 1-minute load average: other work on the machine skews the ratio (2 processes get a bigger share of busy cores than 1). */
const load = () => require("node:os").loadavg()[0].toFixed(1);

async function main() {
  const autocannon = prepare();
  const loadBefore = load();
  const rows = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [1, 2] : [2, 1];
    const rate = {};
    for (const workers of order) rate[workers] = await measure(autocannon, workers);
    rows.push({ one: rate[1], two: rate[2], ratio: rate[2] / rate[1] });
    process.stderr.write(
      `round ${round + 1}/${ROUNDS}: 1 worker ${Math.round(rate[1])} req/s, 2 workers ${Math.round(rate[2])} req/s\n`,
    );
  }
  const cores = require("node:os").availableParallelism();
  console.log(
    `\nGET ${values.path}, autocannon with ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s; ${cores} cores, load average ${loadBefore} before and ${load()} after\n`,
  );
  console.log("| round | 1 worker (req/s) | 2 workers (req/s) | 2 ÷ 1 |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const [i, r] of rows.entries())
    console.log(`| ${i + 1} | ${Math.round(r.one)} | ${Math.round(r.two)} | ${r.ratio.toFixed(2)} |`);
  const [one, two, ratio] = ["one", "two", "ratio"].map((k) => median(rows.map((r) => r[k])));
  console.log(`| median | ${Math.round(one)} | ${Math.round(two)} | ${ratio.toFixed(2)} |`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
