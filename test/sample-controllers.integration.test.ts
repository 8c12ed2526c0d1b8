import { execFile, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

/*
 * The controllers sample, compiled by tsc (not swc), so decorator metadata is exactly what tsc emits,
 * run as its own node process and called over real HTTP. The jest global setup has built dist/, which
 * the compiled sample loads by package name (`switchyard-router`, `switchyard-router/decorators`).
 */

const root = path.resolve(__dirname, "..");
const tsc = path.join(root, "node_modules/typescript/bin/tsc");
const run = promisify(execFile);

// compiling and starting a process: far more than jest's 5 s default on a slow machine
jest.setTimeout(120_000);

let server: ChildProcess | undefined;
let base = "";
let output = "";

beforeAll(async () => {
  if (!existsSync(path.join(root, "dist/cjs/decorators/index.js")))
    await run(process.execPath, ["scripts/build.js"], { cwd: root });
  await run(process.execPath, [tsc, "-p", "samples/controllers/tsconfig.json"], { cwd: root });
  const child = spawn(process.execPath, [path.join(root, "dist/samples/controllers/server.js")], {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server = child;
  base = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (found !== null) resolve(found[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("exit", (code) =>
      reject(new Error(`the sample server exited (${String(code)}) before listening:\n${output}`)),
    );
  });
});

afterAll(async () => {
  const child = server;
  if (child === undefined || child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill();
  });
});

async function get(url: string, init?: RequestInit): Promise<{ status: number; body: string; type: string | null }> {
  const res = await fetch(`${base}${url}`, init);
  return { status: res.status, body: await res.text(), type: res.headers.get("content-type") };
}

describe("controllers sample over HTTP (tsc-compiled)", () => {
  test("a root controller and a prefixed one", async () => {
    expect(await get("/health")).toEqual({
      status: 200,
      body: '{"status":"ok"}',
      type: "application/json; charset=utf-8",
    });
    expect(JSON.parse((await get("/api/users")).body)).toEqual([
      { id: 1, name: "ada" },
      { id: 2, name: "grace" },
    ]);
  });

  test("a UserId newtype: valid ids route to byId, others fall through to the name route", async () => {
    expect(JSON.parse((await get("/api/users/2")).body)).toEqual({ id: 2, name: "grace" });
    expect(JSON.parse((await get("/api/users/ada")).body)).toEqual({ id: 1, name: "ada" });
    // "0" is no UserId (fails @Min(1)) and no Username (fails @Length(3, 20)): nothing matches
    expect(await get("/api/users/0")).toEqual({ status: 404, body: "", type: null });
    // an unknown id: byId passes (routeMismatch), the name route has nobody called "999"
    expect((await get("/api/users/999")).status).toBe(404);
    expect((await get("/api/users/nobody")).body).toBe('{"error":"no such user"}');
  });

  test("query parameters: optional, parsed, a 400 naming the one that does not parse", async () => {
    expect(JSON.parse((await get("/api/users?limit=1")).body)).toEqual([{ id: 1, name: "ada" }]);
    expect(JSON.parse((await get("/api/users?prefix=gr")).body)).toEqual([{ id: 2, name: "grace" }]);
    const bad = await get("/api/users?limit=two");
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({
      error: 'the query parameter "limit" is not a valid Int',
      errors: [{ in: "query", field: "limit", constraint: "Int", message: '"two" is not a valid Int' }],
    });
  });

  test("a header parameter parsed as a UserId: required, and a 400 when missing or invalid", async () => {
    expect(JSON.parse((await get("/api/users/me", { headers: { "x-user-id": "2" } })).body)).toEqual({
      id: 2,
      name: "grace",
    });
    expect((await get("/api/users/me", { headers: { "x-user-id": "77" } })).status).toBe(404);
    const missing = await get("/api/users/me");
    expect([missing.status, JSON.parse(missing.body).errors[0]]).toEqual([
      400,
      {
        in: "header",
        field: "x-user-id",
        constraint: "required",
        message: 'the header "x-user-id" is required (UserId)',
      },
    ]);
    const zero = await get("/api/users/me", { headers: { "x-user-id": "0" } });
    expect([zero.status, JSON.parse(zero.body).errors[0].constraint]).toEqual([400, "UserId"]);
  });

  test("POST with a validated @Body: 201, or a 400 listing each failing field", async () => {
    const json = { "content-type": "application/json" };
    const created = await get("/api/users", { method: "POST", headers: json, body: '{"name":"linus"}' });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.body)).toEqual({ id: 3, name: "linus" });
    expect(JSON.parse((await get("/api/users/linus")).body)).toEqual({ id: 3, name: "linus" });

    const invalid = await get("/api/users", { method: "POST", headers: json, body: '{"name":"X","admin":true}' });
    expect(invalid.status).toBe(400);
    expect(JSON.parse(invalid.body)).toEqual({
      error: "the body is invalid",
      errors: [
        { in: "body", field: "admin", constraint: "whitelistValidation", message: "property admin should not exist" },
        {
          in: "body",
          field: "name",
          constraint: "matches",
          message: "name must be lower-case letters, digits or _, starting with a letter",
        },
        {
          in: "body",
          field: "name",
          constraint: "isLength",
          message: "name must be longer than or equal to 3 characters",
        },
      ],
    });
    expect((await get("/api/users", { method: "POST", headers: json, body: '{"name":' })).status).toBe(400);
  });

  test("a @Match with a method, a Day path variable, and a service injected by tsyringe", async () => {
    const report = JSON.parse((await get("/api/reports/2024-02-29")).body) as { day: string; users: number };
    expect(report.day).toBe("2024-02-29");
    expect(report.users).toBeGreaterThanOrEqual(2);
    expect((await get("/api/reports/2023-02-29")).status).toBe(404);
    expect((await get("/api/reports/2024-02-29", { method: "POST" })).status).toBe(404);
  });

  test("DELETE is guarded by a DI-resolved guard class: without the API key the route does not match", async () => {
    const added = JSON.parse((await get("/api/users", { method: "POST", body: '{"name":"temp"}' })).body) as {
      id: number;
    };
    expect((await get(`/api/users/${added.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await get(`/api/users/${added.id}`, { method: "DELETE", headers: { "x-api-key": "wrong" } })).status).toBe(
      404,
    );
    expect(
      (await get(`/api/users/${added.id}`, { method: "DELETE", headers: { "x-api-key": "let-me-in" } })).status,
    ).toBe(204);
    expect((await get(`/api/users/${added.id}`)).status).toBe(404);
  });

  test("an upload read by @File and @FormField: a browser's FormData, the file's bytes intact", async () => {
    const content = new Uint8Array(100_000).map((_, i) => (i * 7 + 3) % 256);
    let checksum = 0;
    for (const byte of content) checksum = (checksum * 31 + byte) % 1_000_000_007;
    const form = new FormData();
    form.append("caption", "me, at the sea");
    form.append("avatar", new Blob([content], { type: "image/png" }), "me.png");
    const sent = await get("/api/avatars", { method: "POST", body: form });
    expect(sent.status).toBe(200);
    expect(JSON.parse(sent.body)).toEqual({
      name: "me.png",
      type: "image/png",
      size: 100_000,
      checksum,
      caption: "me, at the sea",
    });
    // no file: the 400 naming it; a JSON body: 415
    const none = new FormData();
    none.append("caption", "nothing");
    const missing = await get("/api/avatars", { method: "POST", body: none });
    expect([missing.status, JSON.parse(missing.body).errors]).toEqual([
      400,
      [{ in: "body", field: "avatar", constraint: "required", message: 'the file "avatar" is required (file)' }],
    ]);
    const json = await get("/api/avatars", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(415);
  });

  test("server-sent events from a decorated method: each event as sent, then the end", async () => {
    const res = await fetch(`${base}/api/countdown?from=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(await res.text()).toBe(
      "event: tick\nid: 2\ndata: 2\n\nevent: tick\nid: 1\ndata: 1\n\nevent: done\ndata: liftoff\n\n",
    );
    expect((await get("/api/countdown?from=x")).status).toBe(400);
  });

  test("a functional route mounted next to the controllers", async () => {
    expect((await get("/static/css/a.css")).body).toBe("you asked for css/a.css");
  });

  test("the server wrote nothing to stderr", () => {
    expect(output).not.toMatch(/error/i);
  });
});
