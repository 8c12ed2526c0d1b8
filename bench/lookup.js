/*
 * Child process: every lookup case for one router. Checks each answer against the data's `expect`
 * and `params` before timing anything; prints one JSON line. Usage: node bench/lookup.js <router>
 */
const { load, fresh } = require("./lib/data");
const { adapters, Unsupported } = require("./lib/routers");
const { measure, batchOf } = require("./lib/timer");

/** The cases of a route set: each request alone, then each named list. */
function casesOf(set) {
  const cases = [];
  if (set.requests.length <= 20)
    for (const request of set.requests) cases.push({ name: request.name, requests: [request], fresh: false });
  for (const [name, indexes] of Object.entries(set.lists)) {
    cases.push({
      name,
      requests: indexes.map((i) => set.requests[i]),
      fresh: (set.freshStringLists ?? []).includes(name),
    });
  }
  return cases;
}

async function check(router, requests) {
  for (const request of requests) {
    const got = await router.answer(request.method, request.path);
    const want = request.expect === null ? null : { id: request.expect, params: request.params };
    if (JSON.stringify(normalize(got)) !== JSON.stringify(normalize(want))) {
      return `${request.method} ${request.path}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
    }
  }
  return null;
}

const normalize = (answer) =>
  answer && { id: answer.id, params: Object.fromEntries(Object.entries(answer.params).sort()) };

/** Build time (first build and median of 5 more) and heap retained by the route table. */
function buildCost(adapter, routes) {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  let start = process.hrtime.bigint();
  const kept = adapter.build(routes);
  kept.answer("GET", "/"); // some routers finish building on first lookup
  const first = Number(process.hrtime.bigint() - start) / 1e6;
  global.gc?.();
  const heap = process.memoryUsage().heapUsed - before;
  const again = [];
  for (let i = 0; i < 5; i++) {
    start = process.hrtime.bigint();
    adapter.build(routes).answer("GET", "/");
    again.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  again.sort((a, b) => a - b);
  return { firstMs: first, medianMs: again[2], heapBytes: global.gc ? heap : null, kept };
}

async function main() {
  const name = process.argv[2];
  const adapter = await adapters[name]();
  const out = { router: name, sets: {}, build: null };
  try {
    const { firstMs, medianMs, heapBytes } = buildCost(adapter, load("github").routes);
    out.build = { firstMs, medianMs, heapBytes };
  } catch (error) {
    out.build = {
      error: error instanceof Unsupported ? `cannot express: ${error.message}` : `cannot load: ${error.message}`,
    };
  }
  for (const setName of ["micro", "github", "typed"]) {
    const set = load(setName);
    const results = (out.sets[setName] = {});
    let router;
    try {
      router = adapter.build(set.routes);
    } catch (error) {
      for (const c of casesOf(set))
        results[c.name] = { error: error instanceof Unsupported ? "cannot express" : "cannot load" };
      continue;
    }
    const isAsync = name === "express 5";
    for (const c of casesOf(set)) {
      const wrong = await check(router, c.requests);
      if (wrong !== null) {
        results[c.name] = { error: "wrong answer", detail: wrong };
        continue;
      }
      const pairs = c.requests.map((r) => [r.method, r.path]);
      const batch = batchOf(pairs);
      const makeBatch = c.fresh ? () => batch.map(([m, p]) => [m, fresh(p)]) : () => batch;
      results[c.name] = { ns: await measure(router.lookup, makeBatch, isAsync) };
    }
  }
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
