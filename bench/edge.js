/*
 * The edge bundle and its cold start in workerd (issue 27): a two-route Fetch app written with
 * switchyard (`route`, `alt`, and `toFetch` from the built package's edge entry — the minimal Fetch app
 * — and from its full `switchyard-router/fetch` entry) and with Hono (bench/node_modules), each bundled
 * by esbuild as a Workers bundler does (minified, ES module), plus a bare worker with no router.
 * Prints each bundle's size (minified, gzip), then, over interleaved rounds, the median time from
 * starting workerd (miniflare) to its first answer, and of the first request once it is ready.
 *
 * With `--count`, instead of timing workerd: the instructions Node (the same V8) spends loading each
 * bundle and answering its first request, under callgrind (bench/lib/callgrind.js: single-threaded,
 * fixed seeds, so the count does not move with the machine's load), less the bare worker's.
 *
 * With `--per-request`: the instructions per request of each Fetch entry's handler (the compiled
 * dispatcher against the interpreter) on tables of 2, 20 and 200 routes, asking for the last route
 * (the interpreter's worst case), the `Request` made once; `countPerLookup` under callgrind.
 *
 *   npm run build && node bench/install.js && node bench/edge.js [ROUNDS] [--count | --per-request]
 */
const { Miniflare } = require("miniflare");
const path = require("node:path");
const { gzipSync } = require("node:zlib");
const { mkdtempSync, rmSync, writeFileSync } = require("node:fs");
const os = require("node:os");
const { bundleApp } = require("./lib/bundle.js");
const { countPerLookup, totals } = require("./lib/callgrind.js");

const root = path.resolve(__dirname, "..");
const args = process.argv.slice(2);
const rounds = Number(args.find((arg) => !arg.startsWith("--")) ?? 10);

/** The two-route app with `toFetch` from `switchyard-router/<entry>`. */
function switchyard(entry) {
  return `import { alt, route } from "switchyard-router";
import { toFetch } from "switchyard-router/${entry}";
export default { fetch: toFetch(alt(route("GET /", () => "hello"), route("GET /users/id:Int", (req) => ({ id: req.vars.id })))) };`;
}

const apps = {
  bare: {
    dir: root,
    source: `export default { fetch: (request) => new URL(request.url).pathname === "/users/7"
      ? Response.json({ id: 7 }) : new Response("hello") };`,
  },
  "switchyard (edge entry)": { dir: root, source: switchyard("edge") },
  "switchyard (fetch entry)": { dir: root, source: switchyard("fetch") },
  hono: {
    dir: __dirname,
    source: `import { Hono } from "hono";
const app = new Hono();
app.get("/", (c) => c.text("hello"));
app.get("/users/:id{[0-9]+}", (c) => c.json({ id: Number(c.req.param("id")) }));
export default app;`,
  },
};

/** The app's bundle, its imports resolved from its folder. */
async function bundle({ dir, source }) {
  return (await bundleApp(source, { resolveDir: dir })).text;
}

/** Milliseconds from starting workerd to its first answer, and of that first answer once ready. */
async function coldStart(script) {
  const started = performance.now();
  // the module given as it is: miniflare would refuse the import("multipasta") it cannot follow
  const miniflare = new Miniflare({
    modules: [{ type: "ESModule", path: path.join(root, "worker.mjs"), contents: script }],
    compatibilityDate: "2025-01-01",
  });
  try {
    await miniflare.ready;
    const ready = performance.now();
    const response = await miniflare.dispatchFetch("http://localhost/users/7");
    const body = await response.text();
    if (body !== '{"id":7}') throw new Error(`unexpected answer ${response.status} ${body}`);
    const answered = performance.now();
    return { total: answered - started, first: answered - ready };
  } finally {
    await miniflare.dispose();
  }
}

/**
 * Instructions of a Node child that imports `script` and answers its first request (`totals` calls
 * the child with one more argument, the batch count, which it ignores).
 */
function loadInstructions(script) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "switchyard-edge-count-"));
  try {
    writeFileSync(path.join(dir, "worker.mjs"), script);
    const runner = path.join(dir, "run.mjs");
    writeFileSync(
      runner,
      `const { default: worker } = await import("./worker.mjs");
const response = await worker.fetch(new Request("http://localhost/users/7"));
if ((await response.text()) !== '{"id":7}') process.exit(1);`,
    );
    return totals(runner, [], 1, false).Ir;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const PER_BATCH = 200;

/**
 * The child of `--per-request`: `node edge.js --serve <entry> <routes> <batches>` answers
 * `batches` × {@link PER_BATCH} requests for the last of `routes` routes through that entry's `toFetch`.
 */
async function serveRequests([entry, routes, batches]) {
  const lib = require(path.join(root, "dist/cjs/src/index.js"));
  const { toFetch } = require(path.join(root, `dist/cjs/src/adapters/${entry}.js`));
  const count = Number(routes);
  const tree = [];
  for (let i = 0; i < count; i++) tree.push(lib.route(`GET /r${i}/items/id:Int`, (req) => ({ id: req.vars.id })));
  const handler = toFetch(lib.alt(...tree));
  const request = new Request(`http://localhost/r${count - 1}/items/7`);
  for (let b = 0; b < Number(batches); b++)
    for (let i = 0; i < PER_BATCH; i++) if ((await handler(request)).status !== 200) throw new Error("not a 200");
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (args[0] === "--serve") return serveRequests(args.slice(1));
  if (args.includes("--per-request")) {
    console.log(
      "| routes | switchyard-router/fetch (compiled) | switchyard-router/edge (interpreter) | edge ÷ fetch |",
    );
    console.log("| ---: | ---: | ---: | ---: |");
    for (const routes of [2, 20, 200]) {
      const [fetch, edge] = ["fetch", "edge"].map(
        (entry) => countPerLookup(__filename, ["--serve", entry, String(routes)], PER_BATCH).Ir,
      );
      console.log(`| ${routes} | ${Math.round(fetch)} | ${Math.round(edge)} | ${(edge / fetch).toFixed(2)} |`);
    }
    return;
  }
  const scripts = {};
  for (const [name, app] of Object.entries(apps)) {
    scripts[name] = await bundle(app);
    const bytes = Buffer.byteLength(scripts[name]);
    console.log(`${name}: ${bytes} bytes minified, ${gzipSync(scripts[name], { level: 9 }).length} gzip`);
  }
  if (args.includes("--count")) {
    const counts = Object.fromEntries(Object.keys(apps).map((name) => [name, loadInstructions(scripts[name])]));
    for (const [name, count] of Object.entries(counts))
      console.log(`${name}: ${count} instructions to load and answer once, ${count - counts.bare} more than bare`);
    return;
  }
  const times = Object.fromEntries(Object.keys(apps).map((name) => [name, { total: [], first: [] }]));
  for (let round = 0; round < rounds; round++) {
    const order = Object.keys(apps);
    if (round % 2 === 1) order.reverse();
    for (const name of order) {
      const { total, first } = await coldStart(scripts[name]);
      times[name].total.push(total);
      times[name].first.push(first);
    }
  }
  for (const [name, { total, first }] of Object.entries(times))
    console.log(
      `${name}: start to first answer ${median(total).toFixed(1)} ms, first request ${median(first).toFixed(2)} ms`,
    );
  // every round, in run order: one machine's noise shows here, not in the medians
  for (const [name, { total }] of Object.entries(times))
    console.log(`${name}: start to first answer by round ${total.map((ms) => ms.toFixed(0)).join(", ")} ms`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
