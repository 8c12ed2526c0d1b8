/*
 * End-to-end req/s of the decorator framework (npm run bench:decorators): a route with @Query + @Body
 * against the same route through the functional counterparts and written by hand, and a request-scoped
 * controller against a singleton one. Each variant runs in its own server process; autocannon loads it
 * over loopback. Rounds alternate the variants so that a noisy machine hurts them alike.
 * A body variant written `name:invalid` is sent a body failing both fields and timed on its 400s.
 * A variant written `name@/other/checkout` runs against that checkout's build (e.g. main's, to check
 * that singleton controllers kept their speed): `node bench/decorators/run.js "singleton,singleton@/tmp/main"`.
 */
const { spawn } = require("node:child_process");
const path = require("node:path");
const autocannon = require("autocannon");

const server = path.resolve(__dirname, "../../dist/bench/decorators/server.js");
const seconds = Number(process.env.SECONDS ?? 5);
const rounds = Number(process.env.ROUNDS ?? 2);
const body = JSON.stringify({ name: "lamp", price: 12 });
const invalidBody = JSON.stringify({ name: "", price: -1 });
const requests = {
  decorated: { method: "POST", path: "/items?page=2", body, headers: { "content-type": "application/json" } },
  singleton: { method: "GET", path: "/items/7" },
};
for (const name of ["functional", "hand", "decorated class-validator", "decorated zod", "decorated valibot"])
  requests[name] = requests.decorated;
requests.request = requests.singleton;
const groups = (
  process.argv[2] ??
  "decorated,decorated class-validator,decorated zod,functional,hand;" +
    "decorated:invalid,decorated class-validator:invalid,decorated zod:invalid,hand:invalid;singleton,request"
)
  .split(";")
  .map((g) => g.split(","));

/** The request a variant is sent, and the status it must answer. */
function requestOf(variant) {
  const [name, kind] = variant.split("@")[0].split(":");
  return kind === "invalid"
    ? { request: { ...requests[name], body: invalidBody }, status: 400 }
    : { request: requests[name], status: 200 };
}

function start(variant) {
  const [spec, dist] = variant.split("@");
  const name = spec.split(":")[0];
  const env = dist === undefined ? process.env : { ...process.env, SWITCHYARD_DIST: path.join(dist, "dist/cjs") };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [server, name], { stdio: ["ignore", "pipe", "inherit"], env });
    child.stdout.once("data", (chunk) => resolve({ child, port: Number(String(chunk).trim()) }));
    child.once("error", reject);
  });
}

async function measure(variant) {
  const { child, port } = await start(variant);
  try {
    const { request: sent, status } = requestOf(variant);
    const check = await fetch(`http://127.0.0.1:${port}${sent.path}`, sent);
    if (check.status !== status) throw new Error(`${variant} answered ${check.status}: ${await check.text()}`);
    const { path: target, ...request } = sent;
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${target}`,
      connections: 10,
      duration: seconds,
      ...request,
    });
    const wrong = status === 200 ? result.non2xx : result["2xx"] + result["5xx"];
    if (wrong > 0 || result.errors > 0) throw new Error(`${variant}: ${wrong} wrong answers, ${result.errors} errors`);
    return result.requests.average;
  } finally {
    child.kill();
  }
}

async function main() {
  for (const group of groups) {
    const totals = Object.fromEntries(group.map((v) => [v, []]));
    for (let round = 0; round < rounds; round++) for (const v of group) totals[v].push(await measure(v));
    const base = Math.max(...group.map((v) => Math.max(...totals[v])));
    for (const v of group) {
      const best = Math.max(...totals[v]);
      console.log(
        `${v.padEnd(34)} ${String(Math.round(best)).padStart(7)} req/s (best of ${rounds}: ${totals[v].map(Math.round).join(", ")})  ${((100 * best) / base).toFixed(0)}%`,
      );
    }
    console.log("");
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
