/*
 * Counting instead of timing: a child run under `valgrind --tool=callgrind`, whose counts do not move
 * with the load on the machine. Node runs on one thread with fixed seeds (`--single-threaded
 * --hash-seed=1 --random-seed=1 --predictable`), so two runs of one build count the same instructions
 * to a few thousand in a billion. The child is run twice, `FEW` and `MANY` batches of lookups; the
 * difference divided by the lookups between them is the steady state's cost per lookup (start-up,
 * building the table and warming up cancel out). Counts are no times: a cache miss is one
 * instruction here, so `cache: true` also counts simulated first-level data misses (`D1mr`).
 */
const { execFileSync } = require("node:child_process");
const { mkdtempSync, readFileSync, rmSync } = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const FEW = 100;
const MANY = 200;
const NODE_FLAGS = ["--single-threaded", "--hash-seed=1", "--random-seed=1", "--predictable"];

/** The totals of one callgrind run of `node script ...args batches`, by event name. */
function totals(script, args, batches, cache) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "callgrind-"));
  const out = path.join(dir, "callgrind.out");
  try {
    execFileSync(
      "valgrind",
      [
        "--tool=callgrind",
        `--callgrind-out-file=${out}`,
        ...(cache ? ["--cache-sim=yes"] : []),
        process.execPath,
        ...NODE_FLAGS,
        script,
        ...args,
        String(batches),
      ],
      { stdio: ["ignore", "ignore", "ignore"] },
    );
    const text = readFileSync(out, "utf8");
    const events = /^events: (.*)$/m.exec(text)[1].split(" ");
    const counts = /^(?:summary|totals): (.*)$/m.exec(text)[1].split(" ").map(Number);
    return Object.fromEntries(events.map((event, i) => [event, counts[i]]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Events per lookup of `node script ...args <batches>`, a child that runs `lookups` lookups per batch:
 * `{ Ir }` (instructions), with `cache` also `D1mr` (first-level data read misses, simulated).
 */
function countPerLookup(script, args, lookups, cache = false) {
  const few = totals(script, args, FEW, cache);
  const many = totals(script, args, MANY, cache);
  const per = (event) => (many[event] - few[event]) / ((MANY - FEW) * lookups);
  return cache ? { Ir: per("Ir"), D1mr: per("D1mr") } : { Ir: per("Ir") };
}

module.exports = { countPerLookup, totals };
