/*
 * The decorator framework's cost per request without sockets (the second half of npm run bench:decorators):
 * each variant's tree through the in-memory test client, 5,000 sequential requests per round, 40 rounds
 * interleaved so that a busy machine slows all variants alike. Less noisy than the HTTP figures, and it
 * isolates what the framework adds. A body variant written `name:invalid` sends a body that fails both
 * fields (its 400 is the answer timed). A variant written `name@/other/checkout` runs on that checkout's
 * build (main's, to check that singleton controllers kept their speed); the DTO validator is registered
 * once per process, so compare DTO validation across builds in separate runs.
 * Usage: node dist/bench/decorators/inprocess.js "singleton,request,singleton@/tmp/main,decorated:invalid"
 */
import "reflect-metadata";
import path from "node:path";
import { load, variants } from "./variants";

const n = Number(process.env.REQUESTS ?? 5_000);
const rounds = Number(process.env.ROUNDS ?? 40);
const json = {
  method: "POST",
  url: "/items?page=2",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "lamp", price: 12 }),
};
const invalid = { ...json, body: JSON.stringify({ name: "", price: -1 }) };
const requests: Record<string, { method?: string; url: string; headers?: Record<string, string>; body?: string }> = {
  decorated: json,
  "decorated class-validator": json,
  "decorated zod": json,
  "decorated valibot": json,
  "functional zod": json,
  functional: json,
  hand: json,
  singleton: { url: "/items/7" },
  request: { url: "/items/7" },
};

async function main(): Promise<void> {
  const names = (
    process.argv[2] ??
    [
      "decorated,decorated class-validator,decorated zod,decorated valibot,functional,functional zod,hand",
      "decorated:invalid,decorated class-validator:invalid,decorated zod:invalid,decorated valibot:invalid,hand:invalid",
      "singleton,request",
    ].join(",")
  ).split(",");
  const clients = names.map((spec) => {
    const [variant = "", checkout] = spec.split("@");
    const [name = "", body] = variant.split(":");
    const { sy, dec } = load(
      checkout === undefined ? path.resolve(__dirname, "../../cjs") : path.join(checkout, "dist/cjs"),
    );
    const make = variants(sy, dec)[name];
    if (make === undefined) throw new Error(`unknown variant ${name}`);
    const request = body === "invalid" ? { ...requests[name]!, body: invalid.body } : requests[name]!;
    return { spec, request, status: body === "invalid" ? 400 : 200, client: sy.testClient(make()) };
  });
  const best = new Map<string, number>();
  for (let round = 0; round < rounds; round++) {
    for (const { spec, request, status, client } of clients) {
      const first = await client.request(request);
      if (first.status !== status) throw new Error(`${spec} answered ${first.status}: ${first.body}`);
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await client.request(request);
      const perSecond = n / (Number(process.hrtime.bigint() - start) / 1e9);
      best.set(spec, Math.max(best.get(spec) ?? 0, perSecond));
    }
  }
  for (const [spec, perSecond] of best)
    console.log(
      `${spec.padEnd(36)} ${String(Math.round(perSecond)).padStart(8)} req/s  ${(1e6 / perSecond).toFixed(2)} µs/request (best of ${rounds})`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
