/*
 * The framework benchmark's markdown tables: req/s and CPU per request with ratios to switchyard's
 * decorated app on node:http (issue 27's table) and every round's figure, the Fetch-adapter pair on
 * Node, resident memory after the load, and cold start.
 */
const { ROWS } = require("./api.js");
const { median, medianRatio } = require("./stats.js");

/** The key of the column every ratio is taken against. */
const BASE = "switchyard";

const int = (x) => Math.round(x).toLocaleString("en-US");
const ratio = (r) => (r === null ? "–" : `${r.toFixed(2)}×`);
const mib = (kib) => (kib / 1024).toFixed(1);

/** A round's value of a target, or undefined when the round failed. */
const roundValues = (rounds, pick) => rounds.map((r) => ("error" in r ? undefined : pick(r)));
const measured = (values) => values.filter((v) => v !== undefined);
/** A table cell for a target whose every round failed (the errors are listed under the table). */
const FAILED = "failed";

/** `results`: `{ [target key]: [round result | { error }] }` from load.js, in round order. */
function printLoad(targets, results, { rounds, seconds }) {
  printRows(targets, results, (r, row) => r.rows[row.name], {
    title: `The same API in each framework: req/s (autocannon, 50 connections, 127.0.0.1; ${rounds} interleaved rounds of ${seconds} s per request after 1 s of warm-up; median of rounds, and in brackets the median of per-round ratios to switchyard decorated on node:http)`,
    unit: "req/s",
    format: int,
  });
  printRows(targets, results, (r, row) => r.cpuUs?.[row.name] ?? undefined, {
    title:
      "CPU per request: µs of the server's CPU (all threads) during each request's timed load ÷ the requests answered, lower is better; median of rounds, and in brackets the median of per-round ratios to switchyard decorated on node:http. The machine's other load moves it less than req/s",
    unit: "µs CPU per request",
    format: (us) => us.toFixed(1),
  });
  printFailures(targets, results);
}

/** A table of one figure per request and server (`pick` reads it from a round), then every round's. */
function printRows(targets, results, pick, { title, unit, format }) {
  const rowValues = (key, row) => roundValues(results[key], (r) => pick(r, row));
  console.log(`\n### ${title}\n`);
  console.log(`| request | ${targets.map((t) => t.label).join(" | ")} |`);
  console.log(`|---|${targets.map(() => "---:").join("|")}|`);
  for (const row of ROWS) {
    const cells = targets.map(({ key }) => {
      const values = measured(rowValues(key, row));
      if (values.length === 0) return FAILED;
      return `${format(median(values))} (${ratio(medianRatio(rowValues(key, row), rowValues(BASE, row)))})`;
    });
    console.log(`| ${row.name} | ${cells.join(" | ")} |`);
  }
  console.log(`\n### Every round (${unit}, in run order)\n`);
  console.log(`| server | ${ROWS.map((r) => r.name).join(" | ")} |`);
  console.log(`|---|${ROWS.map(() => "---").join("|")}|`);
  for (const { key, label } of targets) {
    const cells = ROWS.map((row) =>
      rowValues(key, row)
        .map((v) => (v === undefined ? FAILED : format(v)))
        .join(" / "),
    );
    console.log(`| ${label} | ${cells.join(" | ")} |`);
  }
}

/** Every failed round, with its error. */
function printFailures(targets, results) {
  const errors = targets.flatMap(({ key, label }) =>
    results[key].flatMap((r, i) => ("error" in r ? [`- ${label}, round ${i + 1}: ${r.error}`] : [])),
  );
  if (errors.length > 0) console.log(`\nFailed rounds:\n\n${errors.join("\n")}`);
}

/** Two columns of the load table against each other, per row: the median of per-round ratios. */
function printPair(targets, results, key, otherKey) {
  if (results[key] === undefined || results[otherKey] === undefined) return; // not among --servers
  const label = (k) => targets.find((t) => t.key === k).label;
  console.log(`\n### ${label(key)} ÷ ${label(otherKey)} (median of per-round ratios)\n`);
  console.log("| request | ratio |");
  console.log("|---|---:|");
  for (const row of ROWS) {
    const values = (k) => roundValues(results[k], (r) => r.rows[row.name]);
    console.log(`| ${row.name} | ${ratio(medianRatio(values(key), values(otherKey)))} |`);
  }
}

/** Resident memory (VmRSS) of each server after its load, per round. */
function printMemory(targets, results) {
  console.log(`\n### Resident memory after the load (VmRSS read from /proc, MiB; median of rounds)\n`);
  console.log("| server | RSS | rounds |");
  console.log("|---|---:|---|");
  for (const { key, label } of targets) {
    const values = roundValues(results[key], (r) => r.rssKiB ?? undefined);
    const got = measured(values);
    console.log(
      `| ${label} | ${got.length === 0 ? FAILED : mib(median(got))} | ${values.map((v) => (v === undefined ? "–" : mib(v))).join(" / ")} |`,
    );
  }
}

/** `results`: `{ [target key]: [{ ms } | { error }] }` from coldstart.js. */
function printColdStart(targets, results, spawns) {
  console.log(
    `\n### Cold start: spawn → first 200 to GET /users/7 (ms; median of ${spawns} spawns, interleaved; CPU: the server's CPU time by then, all threads, which the machine's load moves far less)\n`,
  );
  console.log("| server | median | fastest | CPU median | spawns |");
  console.log("|---|---:|---:|---:|---|");
  for (const { key, label } of targets) {
    const values = roundValues(results[key], (r) => r.ms);
    const got = measured(values);
    if (got.length === 0) {
      console.log(`| ${label} | ${FAILED} | | | |`);
      continue;
    }
    const cpu = measured(roundValues(results[key], (r) => r.cpuMs ?? undefined));
    console.log(
      `| ${label} | ${median(got).toFixed(0)} | ${Math.min(...got).toFixed(0)} | ${cpu.length === 0 ? "–" : median(cpu).toFixed(0)} | ${values.map((v) => (v === undefined ? FAILED : v.toFixed(0))).join(" / ")} |`,
    );
  }
  printFailures(targets, results);
}

module.exports = { printLoad, printPair, printMemory, printColdStart };
