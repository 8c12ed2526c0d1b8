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
const path = require("node:path");
const { uploadBigFile: upload } = require("../test/shared/big-upload.cjs");

const MIB = 1024 * 1024;

if (process.versions.bun !== undefined) serve();
else
  drive().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });

/** On Bun: the measured server (test/shared/memory-routes.cjs), printing `listening <port>`. */
function serve() {
  const { alt } = require("switchyard-router");
  const { toFetch } = require("switchyard-router/fetch");
  const { memoryRoutes } = require("../test/shared/memory-routes.cjs");
  const tree = alt(...memoryRoutes(() => Bun.gc(true)));
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
