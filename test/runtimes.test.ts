import type { Miniflare } from "miniflare";
import { join } from "node:path";
import { PACKAGE_ENTRY, ROOT } from "./shared/package-entry";
import { startRuntime, type RunningRuntime } from "./shared/runtimes";
import { cases, type TableRequest } from "./shared/behaviour.cjs";
import {
  type Difference,
  expectCase,
  fetchInit,
  type Observed,
  observeFetch,
  observeResponse,
  runTable,
} from "./shared/table";
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
};

/**
 * workerd sends the 413 for a streamed upload over bodyLimit while the upload is still coming, and
 * closes the connection on it: the client then either reads the 413 or fails writing the rest of its
 * upload (EPIPE, or ECONNRESET when the close comes as a reset; one time in two or three). That
 * request is sent again after such a cut, up to {@link OVER_LIMIT_ATTEMPTS} times: each cut must be
 * that one (a write that failed, no status), and the answer read at last is checked as the table
 * says (the 413 and its body), so no run passes on a cut alone.
 */
const OVER_LIMIT = cases.find((c) => c.name === "a streamed body (no content-length) over bodyLimit: 413")!;
const OVER_LIMIT_ATTEMPTS = 20;

async function sendToWorkerd(miniflare: Miniflare, request: TableRequest): Promise<Observed> {
  if (request !== OVER_LIMIT.request) return dispatchTableRequest(miniflare, request);
  const cuts: string[] = [];
  while (cuts.length < OVER_LIMIT_ATTEMPTS) {
    const init = fetchInit(request) as Parameters<Miniflare["dispatchFetch"]>[1];
    let response: Response;
    try {
      response = (await miniflare.dispatchFetch(`http://localhost${request.url}`, init)) as unknown as Response;
    } catch (error) {
      // the cut: writing the upload failed (the peer closed: EPIPE, or reset: ECONNRESET) before any
      // status arrived; any other failure fails the test
      const cause = (error as { cause?: { code?: unknown; syscall?: unknown } }).cause;
      expect({ code: cause?.code, syscall: cause?.syscall }).toEqual({
        code: expect.stringMatching(/^(EPIPE|ECONNRESET)$/),
        syscall: "write",
      });
      cuts.push(String(cause?.code));
      continue;
    }
    return observeResponse(response);
  }
  throw new Error(`workerd cut the upload ${OVER_LIMIT_ATTEMPTS} times in a row (${cuts.join(", ")}): no 413 was read`);
}

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

describe.each([
  ["fetch", "toFetch"],
  ["edge", "the edge entry's toFetch with forms: formReader"],
] as const)("workerd (%s: %s as a Workers module, through miniflare)", (entry, _how) => {
  let miniflare: Miniflare;
  beforeAll(async () => {
    miniflare = await startWorkerd(entry);
  }, START);
  afterAll(() => miniflare?.dispose());
  runTable(() => (request) => sendToWorkerd(miniflare, request), WORKERD);
});
