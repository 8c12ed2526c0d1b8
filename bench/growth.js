/*
 * Child process: lookup time against table size (10, 100, 1,000, 10,000 routes) for one router.
 * Every table has the same shape, `/r<a>/items/:id/v<b>`, so every lookup walks the same depth;
 * only the number of routes grows. Usage: node bench/growth.js <router>
 */
const { fresh } = require("./lib/data");
const { adapters } = require("./lib/routers");
const { measure, batchOf } = require("./lib/timer");

const SIZES = [10, 100, 1000, 10000];

function table(size) {
  const width = Math.ceil(Math.sqrt(size));
  return Array.from({ length: size }, (_, id) => ({
    id,
    method: "GET",
    path: `/r${id % width}/items/:id/v${Math.floor(id / width)}`,
  }));
}

async function main() {
  const name = process.argv[2];
  const adapter = await adapters[name]();
  const out = { router: name, growth: {}, buildMs: {} };
  for (const size of SIZES) {
    const routes = table(size);
    const started = process.hrtime.bigint();
    const router = adapter.build(routes);
    router.answer("GET", "/"); // some routers finish building on first lookup
    out.buildMs[size] = Number(process.hrtime.bigint() - started) / 1e6;
    // 200 hits spread over the table (a fixed pseudo-random order) and 20 misses
    const requests = [];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const route = routes[seed % size];
      requests.push(["GET", route.path.replace(":id", String(i))]);
    }
    for (let i = 0; i < 20; i++) requests.push(["GET", `/r${i}/items/${i}/none`]);
    for (const [method, path] of requests.slice(0, 5)) {
      if (router.answer(method, path) === null) throw new Error(`${name}: no answer for ${path}`);
    }
    const batch = batchOf(requests);
    out.growth[size] = await measure(router.lookup, () => batch.map(([m, p]) => [m, fresh(p)]), false);
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
