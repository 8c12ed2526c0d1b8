/*
 * The RSS rise of a big multipart upload saved by a handler, on Bun through the Fetch adapter
 * (issue 25; node:http's figure is test/forms.memory.test.ts's). `node bench/upload-memory.js
 * [--mib 1024] [--bun PATH] [--json]` (after `npm run build`) starts Bun (on PATH unless given) on this
 * same file as the server, streams one file of that size to it (64 KiB writes, with back-pressure),
 * first read raw (`req.stream()`, no parser: what Bun itself keeps of the body in flight) then through
 * `req.parts()` (the multipart reader), each piped to /dev/null, and prints the server's RSS before
 * and its peak during each upload; `--json` adds the figures as one JSON line (test/forms.memory-bun.test.ts).
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const MIB = 1024 * 1024;

if (process.versions.bun !== undefined) serve();
else
  drive().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });

/** On Bun: the measured server, printing `listening <port>`. */
function serve() {
  const { Readable } = require("node:stream");
  const { pipeline } = require("node:stream/promises");
  const { alt, route } = require("switchyard-router");
  const { toFetch } = require("switchyard-router/fetch");

  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  setInterval(sample, 20);
  const toDevNull = (stream) => pipeline(Readable.fromWeb(stream), fs.createWriteStream("/dev/null"));
  const open = { limits: { totalBytes: Number.POSITIVE_INFINITY, fileBytes: Number.POSITIVE_INFINITY } };

  const tree = alt(
    // collected first, so garbage waiting for the next collection is not counted
    route("GET /rss", () => {
      Bun.gc(true);
      sample();
      const answer = { rss: process.memoryUsage().rss, peak };
      peak = 0;
      return answer;
    }),
    // each file saved to /dev/null through a file stream, as the node:http measurement does
    route("POST /save", async (req) => {
      const files = [];
      for await (const part of req.parts(open)) {
        if (part.kind !== "file") continue;
        await toDevNull(part.stream());
        files.push({ name: part.name, size: part.size });
      }
      return { files };
    }),
    // the same body read raw: what Bun and the adapter cost without the parser
    route("POST /raw", async (req) => {
      await toDevNull(req.stream());
      return "raw";
    }),
  );
  // Bun refuses bodies over 128 MiB unless told otherwise
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    fetch: toFetch(tree),
  });
  console.log(`listening ${server.port} ${Bun.version}`);
  process.stdin.on("end", () => process.exit(0)).resume();
}

/** On node: starts Bun on this file, uploads, prints the figures. */
async function drive() {
  const { parseArgs } = require("node:util");
  const { values } = parseArgs({
    options: {
      mib: { type: "string", default: "1024" },
      bun: { type: "string", default: "bun" },
      json: { type: "boolean", default: false },
    },
  });
  const size = Number(values.mib) * MIB;
  const server = spawn(values.bun, [__filename], {
    cwd: path.resolve(__dirname, ".."),
    stdio: ["pipe", "pipe", "inherit"],
  });
  try {
    const bun = await new Promise((resolve, reject) => {
      let out = "";
      server.stdout.setEncoding("utf8").on("data", (chunk) => {
        out += chunk;
        const found = /^listening (\d+) (\S+)$/m.exec(out);
        if (found !== null) resolve({ port: Number(found[1]), version: found[2] });
      });
      server.once("error", reject);
      server.once("exit", (code) => reject(new Error(`bun exited (${code}) before listening: ${out}`)));
    });
    const rss = async () => (await fetch(`http://127.0.0.1:${bun.port}/rss`)).json();
    console.log(`Bun ${bun.version}, the Fetch adapter; one file of ${size / MIB} MiB`);
    // the first upload loads the parser and grows RSS by itself
    await upload(bun.port, "/save", 8 * MIB);
    const figures = { bun: bun.version, mib: size / MIB };
    for (const target of ["/raw", "/save"]) {
      const before = await rss();
      const started = performance.now();
      const answer = await upload(bun.port, target, size);
      const seconds = (performance.now() - started) / 1000;
      const after = await rss();
      if (answer.status !== 200) throw new Error(`${target}: ${answer.status} ${answer.body}`);
      const mib = (bytes) => (bytes / MIB).toFixed(1);
      console.log(
        `${target}: ${answer.body} in ${seconds.toFixed(1)} s; RSS before ${mib(before.rss)} MiB, peak during ${mib(after.peak)} MiB (+${mib(after.peak - before.rss)} MiB), after ${mib(after.rss)} MiB`,
      );
      figures[target.slice(1)] = { answer: answer.body, growth: after.peak - before.rss };
    }
    if (values.json) console.log(JSON.stringify(figures));
  } finally {
    server.stdin.end();
  }
}

/** Streams a multipart body with one file of `size` bytes to `target`; resolves with the status and body. */
function upload(port, target, size) {
  const { request } = require("node:http");
  const boundary = "----big-upload";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nbig\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: target,
        agent: false,
        headers: {
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": head.length + size + tail.length,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (c) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode, body }));
      },
    );
    req.on("error", reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once("drain", pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}
