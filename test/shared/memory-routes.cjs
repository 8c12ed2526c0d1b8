// The routes of a server whose memory a big upload measures (test/fixtures/forms-upload-server.cjs on
// node:http, bench/upload-memory.js on Bun): its RSS sampled every 20 ms, `GET /rss` for the RSS now and
// the peak since the last call, `POST /save` saving each file of a multipart upload to /dev/null,
// `POST /raw` the same body read raw (no parser: what the server itself keeps of it in flight).
const fs = require("node:fs");
const { Readable } = require("node:stream");
const { pipeline } = require("node:stream/promises");
const { route } = require("switchyard-router");

const OPEN = { limits: { totalBytes: Number.POSITIVE_INFINITY, fileBytes: Number.POSITIVE_INFINITY } };

/**
 * Saved to /dev/null through a real file stream (with its back-pressure). Not through Writable.toWeb:
 * on Node 20 its WritableStream takes writes faster than the file does and queues the whole upload in
 * memory (+260 MiB for 256 MiB measured), where the same file stream piped from Readable.fromWeb stays flat.
 */
const toDevNull = (stream) => pipeline(Readable.fromWeb(stream), fs.createWriteStream("/dev/null"));

/** The three routes; `collect` runs a full garbage collection, so garbage waiting for one is not counted. */
function memoryRoutes(collect) {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage().rss);
  };
  setInterval(sample, 20).unref();
  return [
    route("GET /rss", () => {
      collect();
      sample();
      const answer = { rss: process.memoryUsage().rss, peak };
      peak = 0;
      return answer;
    }),
    route("POST /save", async (req) => {
      const files = [];
      for await (const part of req.parts(OPEN)) {
        if (part.kind !== "file") continue;
        await toDevNull(part.stream());
        files.push({ name: part.name, size: part.size });
      }
      return { files };
    }),
    route("POST /raw", async (req) => {
      await toDevNull(req.stream());
      return "raw";
    }),
  ];
}

module.exports = { memoryRoutes };
