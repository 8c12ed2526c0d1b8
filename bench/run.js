"use strict";
/*
 * `npm run bench`: route lookup for switchyard and its peers (one child process per router), lookup
 * time against table size, build time and heap for the GitHub table, and end-to-end req/s over
 * node:http. Prints markdown tables; `--only lookup,growth,http` runs a part.
 */
const { execFileSync, spawn } = require("node:child_process");
const path = require("node:path");
const { NAMES } = require("./lib/routers");

const only = (process.argv.find((a) => a.startsWith("--only=")) ?? "--only=lookup,growth,http").slice(7).split(",");
const node = process.execPath;

function child(script, args) {
  const out = execFileSync(node, ["--expose-gc", path.join(__dirname, script), ...args], { encoding: "utf8", maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split("\n").at(-1));
}

const fmt = (ns) => (ns >= 1000 ? Math.round(ns).toLocaleString("en-US") : ns.toFixed(0));
const cell = (r) => (r === undefined ? "–" : "ns" in r ? fmt(r.ns) : r.error);

function lookups() {
  const results = [];
  for (const name of NAMES) {
    process.stderr.write(`lookup: ${name}…\n`);
    results.push(child("lookup.js", [name]));
  }
  for (const set of ["micro", "github", "typed"]) {
    const cases = Object.keys(results[0].sets[set]);
    console.log(`\n### ${set}: ns per lookup (median of per-run best batches)\n`);
    console.log(`| case | ${NAMES.join(" | ")} | switchyard ÷ fastest peer |`);
    console.log(`|---|${NAMES.map(() => "---:").join("|")}|---:|`);
    for (const c of cases) {
      const row = results.map((r) => r.sets[set][c]);
      const peers = row.slice(1).filter((r) => r && "ns" in r).map((r) => r.ns);
      const best = Math.min(...peers);
      const ratio = row[0] && "ns" in row[0] && peers.length > 0 ? `${(row[0].ns / best).toFixed(2)}× (${NAMES[1 + row.slice(1).findIndex((r) => r && r.ns === best)]})` : "–";
      console.log(`| ${c} | ${row.map(cell).join(" | ")} | ${ratio} |`);
    }
    for (const r of results) for (const [c, v] of Object.entries(r.sets[set])) if (v.detail) console.log(`\n- ${r.router}, ${c}: ${v.detail}`);
  }
  console.log("\n### GitHub table (516 routes): build time and heap\n");
  console.log("| router | first build (ms) | median of 5 rebuilds (ms) | heap retained |");
  console.log("|---|---:|---:|---:|");
  for (const r of results) {
    const b = r.build;
    console.log(b.error ? `| ${r.router} | ${b.error} | | |` : `| ${r.router} | ${b.firstMs.toFixed(1)} | ${b.medianMs.toFixed(1)} | ${b.heapBytes === null ? "–" : `${(b.heapBytes / 1024).toFixed(0)} KiB`} |`);
  }
}

function growth() {
  const routers = ["switchyard", "memoirist", "find-my-way", "find-my-way compiled"];
  console.log("\n### Lookup time against table size (ns per lookup, fresh strings; same path shape at every size)\n");
  console.log("| router | 10 | 100 | 1,000 | 10,000 | 10,000 ÷ 10 |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const name of routers) {
    process.stderr.write(`growth: ${name}…\n`);
    const g = child("growth.js", [name]).growth;
    console.log(`| ${name} | ${fmt(g[10])} | ${fmt(g[100])} | ${fmt(g[1000])} | ${fmt(g[10000])} | ${(g[10000] / g[10]).toFixed(2)}× |`);
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
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requests.average;
  } finally {
    server.kill();
  }
}

async function http() {
  const kinds = ["raw", "switchyard", "find-my-way", "fastify", "express"];
  const rounds = 4;
  const totals = Object.fromEntries(kinds.map((k) => [k, []]));
  for (let round = 0; round < rounds; round++) {
    // alternate the order so that drift on a shared machine does not favour one server
    for (const kind of round % 2 === 0 ? kinds : [...kinds].reverse()) {
      process.stderr.write(`http: ${kind} (round ${round + 1})…\n`);
      totals[kind].push(await load(kind, 5));
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const raw = median(totals.raw);
  console.log("\n### End to end over node:http on 127.0.0.1 (autocannon, 50 connections; 4 interleaved rounds of 5 s, each after 1 s of warm-up; GET /posts/12345/comments, 20-route table)\n");
  console.log("| server | req/s (median of rounds) | rounds | share of raw node:http |");
  console.log("|---|---:|---|---:|");
  for (const kind of kinds) {
    const label = { raw: "raw node:http (no router)", "find-my-way": "node:http + find-my-way" }[kind] ?? kind;
    console.log(`| ${label} | ${Math.round(median(totals[kind])).toLocaleString("en-US")} | ${totals[kind].map((x) => Math.round(x)).join(", ")} | ${((100 * median(totals[kind])) / raw).toFixed(1)}% |`);
  }
}

async function main() {
  console.log(`Node ${process.version}, ${require("node:os").cpus().length} CPUs (${require("node:os").cpus()[0]?.model ?? "?"}), ${new Date().toISOString()}`);
  if (only.includes("lookup")) lookups();
  if (only.includes("growth")) growth();
  if (only.includes("http")) await http();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
