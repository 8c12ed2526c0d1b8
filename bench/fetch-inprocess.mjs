// The Fetch adapter in process: `toFetch(app)(new Request(…))` in a loop, for builds given as modules
// that export the main entry and `toFetch` (one file each, e.g. bundled from two checkouts), in
// interleaved rounds; prints the median and the fastest round's ns per request of each (on a loaded
// machine the fastest round is the one least disturbed). Runs on Node, Bun and Deno:
//   node bench/fetch-inprocess.mjs A.mjs B.mjs      bun bench/fetch-inprocess.mjs A.mjs B.mjs
// ROUNDS (default 15) and N (requests per round, default 20000) change the work.
import { pathToFileURL } from "node:url";
import { resolve } from "node:path";

const files = process.argv.slice(2);
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const N = Number(process.env.N ?? 20_000);
const body = JSON.stringify({ name: "Ada", email: "ada@example.com", tags: ["a", "b"] });

const variants = [];
for (const file of files) {
  const lib = await import(pathToFileURL(resolve(file)).href);
  const app = lib.alt(
    lib.route("GET /users/id:Int", (req) => ({ id: req.vars.id })),
    lib.route("POST /users", async (req) => ({ created: (await req.json()).name })),
  );
  variants.push({ file, handler: lib.toFetch(app), times: { get: [], post: [] } });
}

const requests = {
  get: () => new Request("http://localhost/users/42"),
  post: () =>
    new Request("http://localhost/users", { method: "POST", headers: { "content-type": "application/json" }, body }),
};

async function round(handler, make) {
  const start = performance.now();
  for (let i = 0; i < N; i++) {
    const response = await handler(make());
    if (response.status !== 200) throw new Error(`status ${response.status}`);
    await response.arrayBuffer();
  }
  return ((performance.now() - start) * 1e6) / N;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const shown = (xs) => `${median(xs).toFixed(0)} ns (fastest ${Math.min(...xs).toFixed(0)})`;
for (let r = 0; r < ROUNDS; r++)
  for (const v of r % 2 === 0 ? variants : [...variants].reverse())
    for (const kind of ["get", "post"]) v.times[kind].push(await round(v.handler, requests[kind]));
for (const v of variants) console.log(`${v.file}: GET ${shown(v.times.get)}, POST json ${shown(v.times.post)}`);
