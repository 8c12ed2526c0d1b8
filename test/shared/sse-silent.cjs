// The SSE routes whose producers wait for the client to leave, shared by test/sse.adapters.test.ts
// (the sources) and test/fixtures/sse-serve.mjs (the built package on Bun and Deno): `lib` is the
// library, `countCleanup(key)` records each producer's clean-up under the request's `key` query.
"use strict";

/** Resolves when `signal` aborts (never rejects). */
const aborted = (signal) =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });

/** GET /silent (never yields; heartbeats every `hb` ms if given) and GET /first-then-silent. */
function silentRoutes(lib, countCleanup) {
  const { route, sse } = lib;
  const keyOf = (req) => req.query.get("key") ?? "";
  return [
    route("GET /silent", (req) => {
      const key = keyOf(req);
      const hb = req.query.get("hb");
      return sse(
        // biome-ignore lint/correctness/useYield: a producer that never yields, on purpose
        async function* (signal) {
          try {
            await aborted(signal); // never yields: only heartbeats flow
          } finally {
            countCleanup(key);
          }
        },
        hb === null ? {} : { heartbeat: Number(hb) },
      );
    }),
    route("GET /first-then-silent", (req) => {
      const key = keyOf(req);
      return sse(
        async function* (signal) {
          try {
            yield "hello";
            await aborted(signal);
          } finally {
            countCleanup(key);
          }
        },
        { heartbeat: 60_000 },
      );
    }),
  ];
}

module.exports = { aborted, silentRoutes };
