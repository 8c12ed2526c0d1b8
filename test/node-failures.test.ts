import { spawn, type ChildProcess } from "node:child_process";
import { createReadStream, mkdtempSync, type ReadStream, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { alt, guard, HttpError, reply, route, toApplication, type ApplicationOptions, type Route } from "../src";
import { eventually, openFds } from "./helpers/eventually";
import { rawRequest, startServer, statusOf, type TestServer } from "./helpers/server";

/*
 * The node adapter under the failures issue 8 names: streams that misbehave, clients that leave,
 * bodies too large. The server must answer what it can, release what it holds, and go on serving.
 * (Handlers that never answer and error hooks that fail are the options requestTimeout and onError:
 * test/pipeline.test.ts.)
 */

/** "cut" when the connection broke before the whole response arrived (headers or body), else the body. */
async function outcomeOf(url: string): Promise<string> {
  try {
    return await (await fetch(url)).text();
  } catch {
    return "cut";
  }
}

async function serve(tree: Route, options: ApplicationOptions = {}): Promise<TestServer> {
  return startServer(toApplication(tree, { onError: () => undefined, ...options }));
}

describe("streamed replies that misbehave", () => {
  let server: TestServer;
  const errors: unknown[] = [];
  beforeAll(async () => {
    const tree = alt(
      route("GET /numbers", () => Readable.from([1, 2, 3])),
      route("GET /late-number", () => reply({ body: Readable.from(["ok", 4]) })),
      route("GET /fails-first", () =>
        reply({ body: new ReadableStream({ pull: (c) => c.error(new Error("disk gone")) }) }),
      ),
      route("GET /fails-midway", () => {
        let sent = false;
        return reply({
          body: new ReadableStream<Uint8Array>({
            pull(c) {
              if (sent) return c.error(new Error("disk gone"));
              sent = true;
              c.enqueue(new TextEncoder().encode("part"));
            },
          }),
        });
      }),
      route("GET /ok", () => "fine"),
    );
    server = await serve(tree, { onError: (e) => errors.push(e) });
  });
  afterAll(() => server.close());

  test("non-byte chunks (Readable.from([1, 2, 3])) are a 500, reported; the process and server go on", async () => {
    const res = await fetch(`${server.url}/numbers`);
    expect(res.status).toBe(500);
    expect(await res.text()).toBe("Internal Server Error");
    expect(String(errors.at(-1))).toMatch(/chunks must be strings or bytes/);
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
  });

  test("a non-byte chunk after the first cuts the connection (the status is already committed)", async () => {
    expect(await outcomeOf(`${server.url}/late-number`)).toBe("cut");
    expect(String(errors.at(-1))).toMatch(/yielded a number \(4\)/);
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
  });

  test("a stream that errors before its first byte is a 500", async () => {
    const res = await fetch(`${server.url}/fails-first`);
    expect(res.status).toBe(500);
    expect(String(errors.at(-1))).toMatch(/disk gone/);
  });

  test("a stream that errors mid-way cuts the connection; the server goes on", async () => {
    expect(await outcomeOf(`${server.url}/fails-midway`)).toBe("cut");
    // over a raw socket: the status and the first chunk arrive, then the connection ends without the
    // chunked body's last (empty) chunk, which is how the client knows the body is incomplete
    const raw = await rawRequest(server.port, "GET /fails-midway HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(statusOf(raw)).toBe(200);
    expect(raw).toContain("\r\n4\r\npart\r\n");
    expect(raw).not.toMatch(/\r\n0\r\n\r\n$/);
    expect(await (await fetch(`${server.url}/ok`)).text()).toBe("fine");
  });
});

describe("HttpError", () => {
  let server: TestServer;
  beforeAll(async () => {
    const tree = alt(
      route("GET /hidden", () => {
        throw new HttpError(503, "database password is hunter2");
      }),
      route("GET /teapot", () => {
        throw new HttpError(429, "slow down", { headers: { "retry-after": "7" }, details: { limit: 10 } });
      }),
      guard(
        (req) => {
          if (req.headers.get("authorization") === null)
            throw new HttpError(401, "who are you?", { headers: { "www-authenticate": "Bearer" } });
          return true;
        },
        route("GET /private", () => "secret"),
      ),
    );
    server = await serve(tree);
  });
  afterAll(() => server.close());

  test("thrown from a handler: its status, headers and a JSON body with message and details", async () => {
    const res = await fetch(`${server.url}/teapot`);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toEqual({ error: "slow down", limit: 10 });
  });

  test("thrown from a guard: answers at once (no other route is tried)", async () => {
    const refused = await fetch(`${server.url}/private`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe("Bearer");
    expect(await refused.json()).toEqual({ error: "who are you?" });
    expect(await (await fetch(`${server.url}/private`, { headers: { authorization: "Bearer x" } })).text()).toBe(
      "secret",
    );
  });

  test("a 5xx HttpError is not exposed unless asked: the body is the generic status text", async () => {
    const res = await fetch(`${server.url}/hidden`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: "Service Unavailable" });
  });

  test("a status outside 400–599 is refused when the error is made", () => {
    expect(() => new HttpError(302)).toThrow(RangeError);
    expect(() => new HttpError(600)).toThrow(RangeError);
  });
});

describe("a client that leaves a file download", () => {
  /** Every file stream the route opened, in order. */
  const opened: ReadStream[] = [];
  let dir: string;
  let file: string;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "switchyard-"));
    file = path.join(dir, "big.bin");
    writeFileSync(file, Buffer.alloc(8 * 1024 * 1024, 7));
    server = await serve(
      alt(
        route("GET /download", () => {
          const stream = createReadStream(file, { highWaterMark: 16 * 1024 });
          opened.push(stream);
          return stream;
        }),
      ),
    );
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts a download, leaves once the first bytes of the body arrived; resolves with the status and their count. */
  function leaveMidStream(): Promise<{ status: number; received: number }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${server.url}/download`, (res) => {
        res.once("data", (chunk: Buffer) => {
          // the first bytes arrived: the server has the file open; now leave
          resolve({ status: res.statusCode ?? 0, received: chunk.length });
          req.destroy();
        });
        res.once("end", () =>
          reject(new Error(`the download ended (status ${res.statusCode}) before the client left`)),
        );
      });
      // an error before the first bytes (a reset, a refused connection) fails the test; after them it is the leaving
      req.on("error", reject);
      req.end();
    });
  }

  test("50 clients leave mid-stream: each got bytes first; every file stream is closed, every descriptor released", async () => {
    const before = openFds();
    const visits: { status: number; received: number }[] = [];
    for (let i = 0; i < 50; i++) visits.push(await leaveMidStream());
    expect(visits.filter((v) => v.status !== 200 || v.received === 0)).toEqual([]);
    // the server's side of the cleanup: the route opened one stream per client, and each one was
    // destroyed and its file closed
    expect(opened).toHaveLength(50);
    const closed = await eventually(
      () => opened.filter((s) => s.destroyed && s.closed).length,
      (n) => n === 50,
    );
    expect(closed).toBe(50);
    const after = await eventually(openFds, (n) => n <= before);
    expect(after).toBeLessThanOrEqual(before);
  }, 20_000);
});

describe("request bodies over the limit", () => {
  let child: ChildProcess;
  let port: number;
  beforeAll(async () => {
    child = spawn(process.execPath, ["--expose-gc", path.join(__dirname, "fixtures/limit-server.cjs")], {
      cwd: path.resolve(__dirname, ".."),
      stdio: ["ignore", "pipe", "inherit"],
    });
    port = await new Promise<number>((resolve, reject) => {
      child.stdout!.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once("exit", (code) => reject(new Error(`the limit server exited with ${code}`)));
    });
  });
  afterAll(() => {
    child.kill();
  });

  /**
   * RSS may grow by what the allocator keeps of the chunks in flight (0.5–9 MB measured on a quiet
   * machine, up to ~26 MB on a loaded one); a body kept in memory would be 100 MB and more.
   */
  const MEMORY_BOUND = 48 * 1024 * 1024;

  const rss = async (): Promise<number> =>
    ((await (await fetch(`http://127.0.0.1:${port}/rss`)).json()) as { rss: number }).rss;

  /**
   * Uploads `total` bytes in 64 KiB chunks (the same buffer each time); resolves with the status. The
   * server answers before the upload ends; node:http then stops reading the connection (and may reset
   * it), so errors after the status are expected, while an error before it fails the upload.
   */
  function upload(total: number, declareLength: boolean): Promise<number> {
    const chunk = Buffer.alloc(64 * 1024, 1);
    return new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = declareLength
        ? { "content-length": total }
        : { "transfer-encoding": "chunked" };
      let answered = false;
      const req = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/upload", headers }, (res) => {
        answered = true;
        res.resume();
        resolve(res.statusCode!);
        // stop sending: the answer is in
        setTimeout(() => req.destroy(), 100);
      });
      req.on("error", (error) => {
        if (!answered) reject(error);
      });
      let sent = 0;
      const pump = (): void => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once("drain", pump);
            return;
          }
        }
        req.end();
      };
      pump();
    });
  }

  test("a small body is read; refusals warm up (a fresh process's first 413 loads code and grows RSS by itself)", async () => {
    expect(await upload(4 * 1024 * 1024, true)).toBe(413);
    expect(await upload(4 * 1024 * 1024, false)).toBe(413);
    const res = await fetch(`http://127.0.0.1:${port}/upload`, { method: "POST", body: "x".repeat(1000) });
    expect(await res.json()).toEqual({ size: 1000 });
  });

  test("100 MB with content-length: 413 before reading; the upload is not kept in memory", async () => {
    const start = await rss();
    expect(await upload(100 * 1024 * 1024, true)).toBe(413);
    expect((await rss()) - start).toBeLessThan(MEMORY_BOUND);
  });

  test("100 MB chunked (no declared length): 413 at the limit; the rest is not kept in memory", async () => {
    const start = await rss();
    expect(await upload(100 * 1024 * 1024, false)).toBe(413);
    expect((await rss()) - start).toBeLessThan(MEMORY_BOUND);
  });

  test("the server goes on serving after refusing", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/upload`, { method: "POST", body: "abc" });
    expect(await res.json()).toEqual({ size: 3 });
  });
});
