import type { OutgoingHttpHeader, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { type PipelineOptions, reportSendError } from "../pipeline.js";
import type { Reply } from "../reply.js";
import { chunksOf, discard, isBodiless, isStreamBody, type StreamBody } from "../reply-stream.js";

/**
 * Writes a reply to a `node:http` response (also Express's). A stream is read one chunk ahead: if it
 * fails before its first byte the client gets a 500; after that the connection is cut (the status is
 * gone). A client that leaves cancels the stream, releasing what it holds. Never throws.
 */
export function sendReply(res: ServerResponse, reply: Reply, options: PipelineOptions): void {
  if (res.headersSent || res.destroyed) {
    discard(reply.body);
    return;
  }
  const body = reply.body;
  try {
    if (isStreamBody(body) && !isBodiless(reply.status) && res.req.method !== "HEAD") {
      void sendStream(res, reply, body, options);
      return;
    }
    if ((typeof body === "string" || body instanceof Uint8Array) && fastWrite(res, reply, body)) return;
    discard(body);
    // status and headers set, not written, so node:http can add content-length for the body
    res.statusCode = reply.status;
    const headers = reply.headers;
    for (const name in headers) res.setHeader(name, headers[name]!);
    if (body === null || isStreamBody(body)) res.end();
    else res.end(body);
  } catch (error) {
    // e.g. a header node:http refuses: a 500 or a cut connection, never a hang
    report(res, options, error);
    failResponse(res);
  }
}

/**
 * Writes a text or bytes reply in one `writeHead` with its own `content-length` (as Fastify does), not
 * a `setHeader` per header, each kept by node:http as a `[name, value]` pair until written. Only where
 * node:http would add that length itself: not a HEAD, a 204 or 304, nor a reply or response (a
 * framework's middleware) that sets its own length or transfer coding. Headers already set on the
 * response (Express's `x-powered-by`) are kept: node:http merges them. False when it does not apply.
 */
function fastWrite(res: ServerResponse, reply: Reply, body: string | Uint8Array): boolean {
  const headers = reply.headers;
  if (
    isBodiless(reply.status) ||
    res.req.method === "HEAD" ||
    "content-length" in headers ||
    "transfer-encoding" in headers ||
    res.hasHeader("content-length") ||
    res.hasHeader("transfer-encoding")
  )
    return false;
  // a flat [name, value, …] list: the reply's headers are frozen, and node:http reads a list as it is
  const flat: OutgoingHttpHeader[] = [];
  for (const name in headers) flat.push(name, headers[name] as OutgoingHttpHeader);
  flat.push("content-length", typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(reply.status, flat).end(body);
  return true;
}

function failResponse(res: ServerResponse): void {
  if (res.headersSent) {
    // what was written is still corked in the socket: flush it, so the client sees the status and the
    // first bytes, then the cut (no end of the chunked body: the client knows it is incomplete)
    res.socket?.uncork();
    res.destroy();
  } else res.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal Server Error");
}

async function sendStream(
  res: ServerResponse,
  reply: Reply,
  body: StreamBody,
  options: PipelineOptions,
): Promise<void> {
  const chunks = chunksOf(body);
  const leave = (): void => chunks.cancel();
  res.once("close", leave);
  try {
    let chunk = await chunks.next();
    if (res.destroyed) return;
    res.writeHead(reply.status, reply.headers as OutgoingHttpHeaders);
    while (chunk !== null) {
      if (!res.write(chunk)) await drained(res);
      if (res.destroyed) return;
      chunk = await chunks.next();
    }
    res.end();
  } catch (error) {
    report(res, options, error);
    if (!res.destroyed) failResponse(res);
  } finally {
    res.off("close", leave);
    // ended, failed or left: either way nothing more is read (a no-op after the end)
    chunks.cancel();
  }
}

/** Resolves once the response can take more, or is gone. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function report(res: ServerResponse, options: PipelineOptions, error: unknown): void {
  reportSendError(options, error, { method: res.req.method ?? "GET", url: res.req.url ?? "/" });
}
