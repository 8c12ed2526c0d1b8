import type { Miniflare } from "miniflare";
import { join } from "node:path";
import { PACKAGE_ENTRY, ROOT } from "./shared/package-entry";
import { startRuntime, type RunningRuntime } from "./shared/runtimes";
import { type Difference, expectCase, fetchInit, observeFetch, runTable } from "./shared/table";
import { dispatchTableRequest, startWorkerd } from "./shared/workerd";

/*
 * The shared behaviour table (test/shared/behaviour.cjs) on the Fetch runtimes, for real: Bun and
 * Deno run as child processes serving the built package's Fetch handler on 127.0.0.1, asked over
 * loopback with fetch; workerd runs the same app as a Workers module through miniflare. A runtime that
 * cannot start fails its tests (beforeAll rejects); none is skipped.
 */

const START = 30_000;

/** Bun's server gives a byte body without a content-type one (`new Response(bytes)` itself has none). */
const BUN: Readonly<Record<string, Difference>> = {
  "status and headers of a reply; no content-type invented": {
    why: "Bun.serve adds content-type: application/octet-stream to a byte body that has none",
    expect: (observed, c) => {
      expectCase({ ...c, absent: [], headers: { ...c.headers, "content-type": "application/octet-stream" } }, observed);
    },
  },
};

/**
 * workerd does not cut the connection when a response stream fails mid-way: it ends the body there,
 * cleanly (a final empty chunk), and logs the error. The client gets the status and at most the bytes
 * sent before the failure, with nothing to tell it the body is short.
 */
const endsEarly: Difference = {
  why: "workerd ends a failing response body cleanly instead of cutting the connection",
  expect: (observed, c) => {
    expectCase({ ...c, cut: undefined }, observed);
    expect("first,".startsWith(new TextDecoder().decode(observed.body))).toBe(true);
  },
};
const WORKERD: Readonly<Record<string, Difference>> = {
  "a stream that fails mid-way: the connection is cut": endsEarly,
  "a non-byte chunk mid-way: the connection is cut": endsEarly,
  "a streamed body (no content-length) over bodyLimit: 413": {
    why: "workerd sends the 413 while the upload is still coming and closes the connection on it",
    expect: (observed, c) => {
      // the client either reads the 413 or fails writing the rest of its upload (EPIPE), about one time in three
      if (!(observed.cut && observed.status === 0)) expectCase(c, observed);
    },
  },
};

describe.each([
  ["bun", BUN],
  ["deno", {}],
] as const)("%s (toFetch served by the runtime)", (name, differences) => {
  let runtime: RunningRuntime;
  beforeAll(async () => {
    runtime = await startRuntime(name);
  }, START);
  afterAll(() => runtime?.stop());
  runTable(() => (request) => observeFetch(runtime.url + request.url, fetchInit(request)), differences);
});

test("a runtime that cannot start is an error (so its tests fail), not a skip", async () => {
  await expect(
    startRuntime("bun", { ...PACKAGE_ENTRY, main: join(ROOT, "dist/no-such-build/index.js") }),
  ).rejects.toThrow(/bun .* did not start: it exited/);
});

describe("workerd (toFetch as a Workers module, through miniflare)", () => {
  let miniflare: Miniflare;
  beforeAll(async () => {
    miniflare = await startWorkerd();
  }, START);
  afterAll(() => miniflare?.dispose());
  runTable(() => (request) => dispatchTableRequest(miniflare, request), WORKERD);
});
