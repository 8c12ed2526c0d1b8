// A big multipart upload streamed to a node:http or Bun server without holding it: one buffer written
// again and again, with back-pressure. Used by the memory tests (test/forms.memory.test.ts,
// bench/upload-memory.js) and the early-stopping handler tests (test/forms.clients.test.ts).
const { request } = require("node:http");

const CHUNK = Buffer.alloc(64 * 1024, 0x5a);

/**
 * Writes `head` to the node:http request `req`, then `size` bytes in 64 KiB writes (waiting for "drain"
 * whenever the socket is full), then ends it with `tail`; sends no more, and does not end it, once
 * `stopped()` turns true (the server answered early).
 */
function sendBody(req, head, size, tail, stopped = () => false) {
  req.write(head);
  let sent = 0;
  const pump = () => {
    while (sent < size && !stopped()) {
      const n = Math.min(CHUNK.length, size - sent);
      sent += n;
      if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) {
        req.once("drain", pump);
        return;
      }
    }
    if (!stopped()) req.end(tail);
  };
  pump();
}

/**
 * Streams a multipart body of a "title" field and one file ("file", big.bin) of `size` bytes to
 * `target` on 127.0.0.1:`port`; resolves with the status and body. The server may answer before the
 * upload ends (a 413): then the rest is not sent.
 */
function uploadBigFile(port, target, size) {
  const boundary = "----big-upload";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nbig\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    let answered = false;
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
        answered = true;
        let body = "";
        res.setEncoding("utf8").on("data", (c) => (body += c));
        res.on("end", () => {
          resolve({ status: res.statusCode, body });
          req.destroy();
        });
      },
    );
    req.on("error", (error) => {
      if (!answered) reject(error);
    });
    sendBody(req, head, size, tail, () => answered);
  });
}

module.exports = { sendBody, uploadBigFile };
