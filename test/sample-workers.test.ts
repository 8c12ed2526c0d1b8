import "reflect-metadata";
import { Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { toApplication } from "switchyard-router";
import { createApp } from "../samples/controllers/app";
import { runNode } from "./helpers/node-child";
import { startServer, type TestServer } from "./helpers/server";

/*
 * The controllers sample as a Cloudflare Worker (samples/workers): built as a user builds it
 * (`node samples/workers/build.js`: tsc for the decorators' metadata, then esbuild), the bundle that
 * wrangler.toml names run on workerd through miniflare, and every answer compared with the same app
 * served by node:http — the same requests, in the same order, against a fresh store on each side.
 */

const root = path.resolve(__dirname, "..");
const sample = path.join(root, "samples/workers");

// tsc, esbuild and workerd's start: far more than jest's 5 s default on a busy machine
jest.setTimeout(180_000);

/** The string settings of wrangler.toml (`key = "value"` lines; the sample's file has no others that matter here). */
function wranglerSettings(): Record<string, string> {
  const toml = readFileSync(path.join(sample, "wrangler.toml"), "utf8");
  return Object.fromEntries([...toml.matchAll(/^(\w+) = "([^"]*)"$/gm)].map((m) => [m[1]!, m[2]!]));
}

let workerd: Miniflare | undefined;
let node: TestServer | undefined;

beforeAll(async () => {
  const built = await runNode(path.join(sample, "build.js"), { timeout: 150_000 });
  if (built.code !== 0)
    throw new Error(`samples/workers/build.js failed (${built.code}):\n${built.stdout}${built.stderr}`);
  const settings = wranglerSettings();
  let logged = "";
  workerd = new Miniflare({
    scriptPath: path.resolve(sample, settings["main"]!),
    modules: true,
    compatibilityDate: settings["compatibility_date"]!,
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.resume();
      stderr.setEncoding("utf8").on("data", (chunk: string) => (logged += chunk));
    },
  });
  try {
    await workerd.ready;
  } catch (error) {
    // a worker that throws while loading stops workerd's start: what it logged says why
    await workerd.dispose().catch(() => undefined);
    workerd = undefined;
    throw new Error(`the worker did not start: ${(error as Error).message}\n${logged}`);
  }
  node = await startServer(toApplication(createApp()));
});

afterAll(async () => {
  await workerd?.dispose();
  await node?.close();
});

/** One request, as both sides are sent it. */
interface Call {
  readonly url: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** What is compared: the status, the content type and the body, byte for byte. */
interface Answer {
  readonly status: number;
  readonly type: string | null;
  readonly body: string;
}

async function onWorkerd(call: Call): Promise<Answer> {
  // miniflare's fetch types are those of its own copy of undici: the same API
  const res = (await workerd!.dispatchFetch(`http://localhost${call.url}`, {
    method: call.method ?? "GET",
    headers: call.headers ?? {},
    body: call.body ?? null,
  } as Parameters<Miniflare["dispatchFetch"]>[1])) as unknown as Response;
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
}

async function onNode(call: Call): Promise<Answer> {
  const res = await fetch(`${node!.url}${call.url}`, {
    method: call.method ?? "GET",
    headers: call.headers ?? {},
    body: call.body ?? null,
  });
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
}

/** Sends `call` to workerd, then to node; the answers must be the same, and workerd's is returned. */
async function both(call: Call): Promise<Answer> {
  const fromWorkerd = await onWorkerd(call);
  expect(fromWorkerd).toEqual(await onNode(call));
  return fromWorkerd;
}

const JSON_TYPE = "application/json; charset=utf-8";
const postJson = (body: string): Call => ({
  url: "/api/users",
  method: "POST",
  headers: { "content-type": "application/json" },
  body,
});

test("GET routes: the controllers, a newtype falling through to the name route, a 404, a query's 400", async () => {
  expect(await both({ url: "/health" })).toEqual({ status: 200, type: JSON_TYPE, body: '{"status":"ok"}' });
  expect(await both({ url: "/api/users/2" })).toEqual({
    status: 200,
    type: JSON_TYPE,
    body: '{"id":2,"name":"grace"}',
  });
  expect((await both({ url: "/api/users/ada" })).body).toBe('{"id":1,"name":"ada"}');
  expect((await both({ url: "/api/users/0" })).status).toBe(404);
  const bad = await both({ url: "/api/users?limit=two" });
  expect([bad.status, JSON.parse(bad.body).errors[0].field]).toEqual([400, "limit"]);
  expect((await both({ url: "/api/users/me", headers: { "x-user-id": "2" } })).body).toBe('{"id":2,"name":"grace"}');
  expect((await both({ url: "/api/reports/2024-02-29" })).status).toBe(200);
});

test("POST with a validated @Body (class-validator, bundled): 201, then a 400 listing each failing field", async () => {
  const created = await both(postJson('{"name":"linus"}'));
  expect(created).toEqual({ status: 201, type: JSON_TYPE, body: '{"id":3,"name":"linus"}' });
  expect((await both({ url: "/api/users/linus" })).body).toBe('{"id":3,"name":"linus"}');

  const invalid = await both(postJson('{"name":"X","admin":true}'));
  expect(invalid.status).toBe(400);
  expect(JSON.parse(invalid.body).errors.map((e: { field: string; constraint: string }) => e.constraint)).toEqual([
    "whitelistValidation",
    "matches",
    "isLength",
  ]);
  expect((await both(postJson('{"name":'))).status).toBe(400);
});

test("a guarded DELETE, a multipart upload (multipasta, bundled) and server-sent events", async () => {
  expect((await both({ url: "/api/users/3", method: "DELETE" })).status).toBe(404);
  expect((await both({ url: "/api/users/3", method: "DELETE", headers: { "x-api-key": "let-me-in" } })).status).toBe(
    204,
  );

  // the same bytes on both sides (each side's FormData would pick its own boundary)
  const boundary = "sample-boundary";
  const upload = await both({
    url: "/api/avatars",
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body: [
      `--${boundary}`,
      'Content-Disposition: form-data; name="caption"',
      "",
      "at the sea",
      `--${boundary}`,
      'Content-Disposition: form-data; name="avatar"; filename="me.png"',
      "Content-Type: image/png",
      "",
      "not really a png",
      `--${boundary}--`,
      "",
    ].join("\r\n"),
  });
  expect(upload.status).toBe(200);
  expect(JSON.parse(upload.body)).toMatchObject({ name: "me.png", type: "image/png", size: 16, caption: "at the sea" });

  const events = await both({ url: "/api/countdown?from=2" });
  expect(events.type).toMatch(/^text\/event-stream/);
  expect(events.body).toBe(
    "event: tick\nid: 2\ndata: 2\n\nevent: tick\nid: 1\ndata: 1\n\nevent: done\ndata: liftoff\n\n",
  );
});
