/*
 * `npm run soak [-- --seconds N --concurrency C]`: loopback load of a mixed workload (workload.js)
 * against the app in server.js (a child process, so the load generator's memory is not measured),
 * for a bounded time. Every SAMPLE_SECONDS the child collects garbage and reports RSS and heap used.
 * Prints req/s, answers per kind, errors (a wrong status or a failed request), and the RSS and heap
 * slopes per minute (least squares over the samples after warm-up). Exits non-zero when there were
 * errors, or when the heap slope is above HEAP_SLOPE_LIMIT.
 */
const http = require("node:http");
const path = require("node:path");
const { fork } = require("node:child_process");
const { WORKLOAD } = require("./workload");

/** A heap that keeps growing by more than this after GC, once warm, is a leak. */
const HEAP_SLOPE_LIMIT = 1024 * 1024; // bytes per minute
const SAMPLE_SECONDS = 10;
const WARM_UP_SECONDS = 20;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

const seconds = option("seconds", 60);
const concurrency = option("concurrency", 16);

function send(agent, port, item) {
  return new Promise((resolve) => {
    const headers =
      item.body === undefined
        ? {}
        : { "content-type": "application/json", "content-length": Buffer.byteLength(item.body) };
    const req = http.request(
      { host: "127.0.0.1", port, method: item.method, path: item.path, headers, agent },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode));
        res.on("error", () => resolve(0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(item.body);
  });
}

/** Least-squares slope of value over time, per minute. */
function slopePerMinute(samples, key) {
  const n = samples.length;
  if (n < 2) return 0;
  const mt = samples.reduce((s, p) => s + p.t, 0) / n;
  const mv = samples.reduce((s, p) => s + p[key], 0) / n;
  const cov = samples.reduce((s, p) => s + (p.t - mt) * (p[key] - mv), 0);
  const varT = samples.reduce((s, p) => s + (p.t - mt) ** 2, 0);
  return (cov / varT) * 60_000;
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const kib = (bytes) => `${Math.round(bytes / 1024)} KiB`;

async function main() {
  const child = fork(path.join(__dirname, "server.js"), [], { execArgv: ["--expose-gc"] });
  const next = () => new Promise((resolve) => child.once("message", resolve));
  const { port } = await next();
  const sample = async (t) => {
    child.send("sample");
    return { t, ...(await next()) };
  };

  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const counts = new Map(); // kind → { ok, wrong }
  let errors = 0;
  let total = 0;
  let turn = 0;
  const start = Date.now();
  const end = start + seconds * 1000;

  async function worker() {
    while (Date.now() < end) {
      const item = WORKLOAD[turn++ % WORKLOAD.length];
      const status = await send(agent, port, item);
      const count = counts.get(item.kind) ?? { ok: 0, wrong: 0 };
      if (status === item.status) count.ok++;
      else {
        count.wrong++;
        errors++;
      }
      counts.set(item.kind, count);
      total++;
    }
  }

  const samples = [await sample(0)];
  const sampler = setInterval(async () => {
    samples.push(await sample(Date.now() - start));
    const last = samples.at(-1);
    process.stdout.write(
      `  ${Math.round(last.t / 1000)} s: rss ${mib(last.rss)}, heap ${mib(last.heapUsed)}, ${total} requests\n`,
    );
  }, SAMPLE_SECONDS * 1000);

  await Promise.all(Array.from({ length: concurrency }, worker));
  clearInterval(sampler);
  const elapsed = (Date.now() - start) / 1000;
  samples.push(await sample(Date.now() - start));
  agent.destroy();
  child.send("stop");
  const { handlerErrors } = await next();

  const warm = samples.filter((s) => s.t >= WARM_UP_SECONDS * 1000);
  const heapSlope = slopePerMinute(warm, "heapUsed");
  const rssSlope = slopePerMinute(warm, "rss");
  const first = samples[0];
  const last = samples.at(-1);

  console.log(`\nsoak: ${seconds} s, ${concurrency} connections, node ${process.version}`);
  console.log(
    `requests: ${total} (${Math.round(total / elapsed)} req/s), errors: ${errors}, handler errors reported (the 500s): ${handlerErrors}`,
  );
  for (const [kind, { ok, wrong }] of counts) console.log(`  ${kind.padEnd(20)} ${ok} as expected, ${wrong} not`);
  console.log(
    `rss:  start ${mib(first.rss)}, end ${mib(last.rss)}, slope ${kib(rssSlope)}/min after ${WARM_UP_SECONDS} s`,
  );
  console.log(
    `heap: start ${mib(first.heapUsed)}, end ${mib(last.heapUsed)}, slope ${kib(heapSlope)}/min after ${WARM_UP_SECONDS} s (limit ${kib(HEAP_SLOPE_LIMIT)}/min)`,
  );

  const measured = warm.length >= 3;
  if (!measured) console.log("too short to judge the slope: run for at least 60 s");
  const failed = errors > 0 || (measured && heapSlope > HEAP_SLOPE_LIMIT);
  if (failed) console.log(errors > 0 ? "FAIL: requests got the wrong answer" : "FAIL: the heap keeps growing");
  process.exitCode = failed ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
