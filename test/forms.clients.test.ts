import { bodyParser } from "@koa/bodyparser";
import express from "express";
import Koa from "koa";
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { alt, type FormOptions, type FormPart, route, type Route } from "switchyard-router";
import { toExpress } from "switchyard-router/express";
import { toKoa } from "switchyard-router/koa";
import { toApplication } from "switchyard-router/node";
import { eventually, openFds } from "./helpers/eventually";
import { startServer, type TestServer } from "./helpers/server";
import { sendBody } from "./shared/big-upload.cjs";

/*
 * Forms sent by real clients to real servers on 127.0.0.1: Node's fetch with FormData (and a string
 * body), curl -F and --data-urlencode, to node:http, Express 5 and Koa 3; a form framework parsers read
 * first (express.urlencoded(), @koa/bodyparser); a handler that saves an upload to a file, and one that
 * stops reading early (the rest of the upload flows by, nothing leaks).
 */

const run = promisify(execFile);
const OPEN: FormOptions = {
  limits: { totalBytes: 64 * 1024 * 1024, fileBytes: 32 * 1024 * 1024, files: 100, parts: 5000, fields: 5000 },
};
const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** Each part as the handler saw it: fields as text, files by name, type, size and sha-256. */
async function seenOf(parts: AsyncIterable<FormPart>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const part of parts) {
    if (part.kind === "field") seen.push([part.field, part.value]);
    else {
      const bytes = await part.bytes();
      seen.push({ field: part.field, name: part.name, type: part.type, size: bytes.byteLength, sha: sha(bytes) });
    }
  }
  return seen;
}

let dir: string;
const saved: string[] = [];
let stoppedEarly = 0;

const app: Route = alt(
  route("POST /parts", async (req) => seenOf(req.parts(OPEN))),
  route("POST /form", async (req) => {
    const form = await req.form(OPEN);
    return { fields: [...form.fields], files: [...form.files.keys()] };
  }),
  route("POST /save", async (req) => {
    for await (const part of req.parts(OPEN)) {
      if (part.kind !== "file") continue;
      const file = path.join(dir, `saved-${saved.length}`);
      saved.push(file);
      await pipeline(Readable.fromWeb(part.stream()), createWriteStream(file));
    }
    return { saved: saved.length };
  }),
  route("POST /first-only", async (req) => {
    for await (const part of req.parts(OPEN)) {
      stoppedEarly++;
      return { first: part.field };
    }
    return { first: null };
  }),
);

const servers: TestServer[] = [];
const urls: Record<string, string> = {};
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "forms-clients-"));
  const expressApp = express();
  expressApp.use("/parsed", express.urlencoded({ extended: false }), toExpress(alt(app, formRoutesAfterParsers())));
  expressApp.use(toExpress(app));
  const koaApp = new Koa();
  // the body parser only where a test wants it: it reads a form into an object, which loses the order of repeated names
  const parser = bodyParser({ enableTypes: ["form", "json"] });
  koaApp.use((ctx, next) => (ctx.path === "/parsed-form" ? parser(ctx, next) : next()));
  koaApp.use(toKoa(alt(app, formRoutesAfterParsers())));
  for (const [name, listener] of [
    ["node", toApplication(app)],
    ["express", expressApp],
    ["koa", koaApp.callback()],
  ] as const) {
    const server = await startServer(listener);
    servers.push(server);
    urls[name] = server.url;
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

/** Routes for a form a framework's parser may have read already. */
function formRoutesAfterParsers(): Route {
  return route("POST /parsed-form", async (req) => {
    const form = await req.form();
    return { fields: [...form.fields], json: await req.json().catch((e: { status: number }) => e.status) };
  });
}

const CLIENTS = ["node", "express", "koa"] as const;

describe.each(CLIENTS)("fetch with FormData to %s", (server) => {
  test("fields and files arrive intact: binary, empty, non-ASCII names, in order", async () => {
    const binary = randomBytes(300_000);
    const data = new FormData();
    data.append("title", "Grüße ✓");
    data.append("blob", new File([binary], "data.bin", { type: "application/octet-stream" }));
    data.append("empty", new File([], "empty.txt", { type: "text/plain" }));
    data.append("名前", "値");
    data.append("doc", new File(["ü"], "日本語 レポート.pdf", { type: "application/pdf" }));
    data.append("title", "again");
    const response = await fetch(`${urls[server]}/parts`, { method: "POST", body: data });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      ["title", "Grüße ✓"],
      { field: "blob", name: "data.bin", type: "application/octet-stream", size: 300_000, sha: sha(binary) },
      { field: "empty", name: "empty.txt", type: "text/plain", size: 0, sha: sha(new Uint8Array(0)) },
      ["名前", "値"],
      { field: "doc", name: "日本語 レポート.pdf", type: "application/pdf", size: 2, sha: sha(Buffer.from("ü")) },
      ["title", "again"],
    ]);
  });

  test("many parts: 1000 fields and 50 files", async () => {
    const data = new FormData();
    const expected: unknown[] = [];
    for (let i = 0; i < 1000; i++) {
      data.append(`f${i}`, `value ${i}`);
      expected.push([`f${i}`, `value ${i}`]);
      if (i % 20 === 0) {
        const bytes = randomBytes(i * 10);
        data.append(`file${i}`, new File([bytes], `file${i}.bin`, { type: "application/octet-stream" }));
        expected.push({
          field: `file${i}`,
          name: `file${i}.bin`,
          type: "application/octet-stream",
          size: i * 10,
          sha: sha(bytes),
        });
      }
    }
    const response = await fetch(`${urls[server]}/parts`, { method: "POST", body: data });
    expect(await response.json()).toEqual(expected);
  });

  test("an urlencoded body (URLSearchParams) read by req.form()", async () => {
    const response = await fetch(`${urls[server]}/form`, {
      method: "POST",
      body: new URLSearchParams([
        ["a", "1"],
        ["b", "two words & more"],
        ["a", "€"],
      ]),
    });
    expect(await response.json()).toEqual({
      fields: [
        ["a", "1"],
        ["b", "two words & more"],
        ["a", "€"],
      ],
      files: [],
    });
  });
});

describe("curl", () => {
  test("curl -F: fields, a binary file, a typed file, a non-ASCII file name, byte for byte", async () => {
    const binary = randomBytes(200_000);
    const file = path.join(dir, "upload.bin");
    await writeFile(file, binary);
    const { stdout } = await run("curl", [
      "-sS",
      "-F",
      "title=Hello ✓",
      "-F",
      `blob=@${file}`,
      "-F",
      `typed=@${file};type=image/png;filename=picture.png`,
      "-F",
      `named=@${file};filename=日本語.bin`,
      "-F",
      "empty=",
      `${urls["node"]}/parts`,
    ]);
    expect(JSON.parse(stdout)).toEqual([
      ["title", "Hello ✓"],
      { field: "blob", name: "upload.bin", type: "application/octet-stream", size: 200_000, sha: sha(binary) },
      { field: "typed", name: "picture.png", type: "image/png", size: 200_000, sha: sha(binary) },
      { field: "named", name: "日本語.bin", type: "application/octet-stream", size: 200_000, sha: sha(binary) },
      ["empty", ""],
    ]);
  });

  test("curl --data-urlencode: an urlencoded form", async () => {
    const { stdout } = await run("curl", [
      "-sS",
      "--data-urlencode",
      "q=a b&c",
      "--data-urlencode",
      "é=✓",
      `${urls["express"]}/form`,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      fields: [
        ["q", "a b&c"],
        ["é", "✓"],
      ],
      files: [],
    });
  });

  test.each(CLIENTS)("curl -F to %s: a 5 MB file saved to disk, byte for byte", async (server) => {
    const binary = randomBytes(5 * 1024 * 1024);
    const file = path.join(dir, `five-${server}.bin`);
    await writeFile(file, binary);
    const before = saved.length;
    const { stdout } = await run("curl", ["-sS", "-F", `upload=@${file}`, `${urls[server]}/save`]);
    expect(JSON.parse(stdout)).toEqual({ saved: before + 1 });
    expect(sha(await readFile(saved.at(-1)!))).toBe(sha(binary));
  });
});

describe("a form a framework's parser read first", () => {
  test("express.urlencoded(): req.form() gives its fields; json() on it is still a 415", async () => {
    const response = await fetch(`${urls["express"]}/parsed/parsed-form`, {
      method: "POST",
      body: new URLSearchParams([
        ["a", "1"],
        ["a", "2"],
        ["b", "x"],
      ]),
    });
    expect(await response.json()).toEqual({
      fields: [
        ["a", "1"],
        ["a", "2"],
        ["b", "x"],
      ],
      json: 415,
    });
  });

  test("@koa/bodyparser (form): req.form() gives its fields; json() on it is a 415", async () => {
    const response = await fetch(`${urls["koa"]}/parsed-form`, {
      method: "POST",
      body: new URLSearchParams([["k", "v"]]),
    });
    expect(await response.json()).toEqual({ fields: [["k", "v"]], json: 415 });
  });
});

describe.each(CLIENTS)("a handler that stops reading early, on %s", (server) => {
  /** POSTs a multipart body of a small field and then `size` bytes of file, in 64 KiB writes. */
  function upload(size: number): Promise<{ status: number; body: string; sent: "all" | string }> {
    const boundary = "early";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="first"\r\n\r\n1\r\n--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const { port } = new URL(urls[server]!);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/first-only",
          agent: false,
          headers: {
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": head.length + size + tail.length,
          },
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8").on("data", (c: string) => (body += c));
          res.on("end", () => {
            answer = { status: res.statusCode!, body };
            settle();
          });
        },
      );
      // done when the answer has come and the upload went out to its end, or failed (the server cut it)
      let answer: { status: number; body: string } | undefined;
      let sentAll: "all" | string | undefined;
      const settle = (): void => {
        if (answer !== undefined && sentAll !== undefined) resolve({ ...answer, sent: sentAll });
      };
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (answer === undefined && sentAll === undefined) reject(error);
        sentAll ??= error.code ?? error.message;
        settle();
      });
      req.on("finish", () => {
        sentAll ??= "all";
        settle();
      });
      sendBody(req, head, size, tail);
    });
  }

  test("it answers at once, the rest of the upload is not kept, the connection and descriptors come back", async () => {
    await upload(1024 * 1024);
    const fds = openFds();
    const before = stoppedEarly;
    for (let i = 0; i < 5; i++) {
      // node:http ends a connection whose request it did not read to the end once the answer is out: the
      // client may see its upload cut (EPIPE, ECONNRESET) after the answer, never before it
      expect(await upload(20 * 1024 * 1024)).toEqual({
        status: 200,
        body: '{"first":"first"}',
        sent: expect.stringMatching(/^(all|EPIPE|ECONNRESET)$/),
      });
    }
    expect(stoppedEarly - before).toBe(5);
    expect(await eventually(openFds, (n) => n <= fds, 10_000)).toBeLessThanOrEqual(fds);
    // the server still answers
    const data = new FormData();
    data.append("a", "1");
    expect(await (await fetch(`${urls[server]}/parts`, { method: "POST", body: data })).json()).toEqual([["a", "1"]]);
  }, 60_000);
});
