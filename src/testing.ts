import { concat } from "./body.js";
import type { HeaderRecord } from "./headers.js";
import { INTERNAL_ERROR, NO_MATCH, pipeline, type PipelineOptions, reportSendError } from "./pipeline.js";
import type { Reply } from "./reply.js";
import { chunksOf, isBodiless, isStreamBody } from "./reply-stream.js";
import type { Route } from "./tree.js";
import { utf8Encoder } from "./utf8.js";

/** A request for {@link TestClient.request} and {@link inject}. */
export interface InjectRequest {
  /** `GET` unless given. */
  readonly method?: string;
  readonly url: string;
  /**
   * Header values by name (any case): each a string or an array of strings (`undefined`: not sent).
   * Any other value (a number, an object, an array holding a non-string) rejects the request with a
   * `TypeError` naming the header, before anything runs.
   */
  readonly headers?: HeaderRecord;
  readonly body?: string | Uint8Array;
}

/** What the test client answers. */
export interface InjectResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  /** The body as UTF-8 text. */
  readonly body: string;
  /** The body as bytes. */
  readonly bytes: Uint8Array;
  /**
   * How a streamed body ended: `"complete"`, or `"cut"` when it failed after its first chunk (a server
   * cuts the connection there; the chunks sent before are in `bytes`).
   */
  readonly ended: "complete" | "cut";
}

/** An in-memory client for one tree: compiled once, no sockets. */
export interface TestClient {
  /** Sends one request through the same pipeline as every adapter; a throwing handler gives a 500. */
  request(request: InjectRequest): Promise<InjectResponse>;
}

const utf8 = new TextDecoder();

/**
 * A client that sends requests to `tree` through the same pipeline as the adapters, in memory: the
 * tree is compiled once, here. It answers what a `node:http` server would: a 404 with an empty body
 * when nothing matches, no body on a HEAD, 204 or 304, a 500 for a stream that fails before its first
 * chunk.
 */
export function testClient(tree: Route, options: PipelineOptions = {}): TestClient {
  const handle = pipeline(tree, options);
  return {
    async request(request) {
      const method = request.method ?? "GET";
      const input = {
        method,
        url: request.url,
        headers: checkedHeaders(request.headers),
        body: request.body,
        raw: request,
        adapter: "inject",
      };
      const reply = (await handle(input)) ?? NO_MATCH;
      return respond(reply, method === "HEAD" || isBodiless(reply.status), (error) =>
        reportSendError(options, error, { method, url: request.url }),
      );
    },
  };
}

/**
 * The request's headers as given, after checking their shape: a record whose values are strings or
 * arrays of strings (`undefined`: no such header). Anything else (a number, an object from
 * `JSON.parse`, an array holding a non-string) is a `TypeError` naming the header, thrown before the
 * request reaches the pipeline, so no handler runs on it.
 */
function checkedHeaders(headers: HeaderRecord | undefined): HeaderRecord {
  if (headers === undefined) return {};
  if (typeof headers !== "object" || headers === null || Array.isArray(headers))
    throw new TypeError(`inject: headers must be an object of header values, got ${kindOf(headers)}`);
  for (const name of Object.keys(headers)) {
    const value: unknown = headers[name];
    if (value === undefined || typeof value === "string") continue;
    if (Array.isArray(value)) {
      const at = value.findIndex((item) => typeof item !== "string");
      if (at === -1) continue;
      throw new TypeError(
        `inject: header ${JSON.stringify(name)} must be a string or an array of strings, got an array holding ${kindOf(value[at])} at index ${at}`,
      );
    }
    throw new TypeError(
      `inject: header ${JSON.stringify(name)} must be a string or an array of strings, got ${kindOf(value)}`,
    );
  }
  return headers;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return `a ${typeof value} (${String(value)})`;
  return `${/^[aeiou]/.test(typeof value) ? "an" : "a"} ${typeof value}`;
}

// one client per tree for `inject` without options, so a test suite compiles each tree once
const shared = new WeakMap<Route, TestClient>();

/**
 * One request through {@link testClient}: a shorthand for tests. Without options, the client (and so
 * the compiled tree) is kept for the tree and reused.
 */
export function inject(tree: Route, request: InjectRequest, options?: PipelineOptions): Promise<InjectResponse> {
  if (options !== undefined) return testClient(tree, options).request(request);
  let client = shared.get(tree);
  if (client === undefined) shared.set(tree, (client = testClient(tree)));
  return client.request(request);
}

async function respond(reply: Reply, bodiless: boolean, report: (error: unknown) => void): Promise<InjectResponse> {
  const body = reply.body;
  if (!isStreamBody(body)) {
    const bytes =
      bodiless || body === null ? new Uint8Array(0) : typeof body === "string" ? utf8Encoder.encode(body) : body;
    return finish(reply.status, reply.headers, bytes, "complete");
  }
  const chunks = chunksOf(body);
  if (bodiless) {
    chunks.cancel();
    return finish(reply.status, reply.headers, new Uint8Array(0), "complete");
  }
  const received: Uint8Array[] = [];
  let size = 0;
  try {
    for (let chunk = await chunks.next(); chunk !== null; chunk = await chunks.next()) {
      received.push(chunk);
      size += chunk.byteLength;
    }
  } catch (error) {
    report(error);
    // before the first chunk a server can still answer 500; after it, it cuts the connection
    if (received.length === 0) return respond(INTERNAL_ERROR, false, report);
    return finish(reply.status, reply.headers, concat(received, size), "cut");
  }
  return finish(reply.status, reply.headers, concat(received, size), "complete");
}

function finish(
  status: number,
  headers: InjectResponse["headers"],
  bytes: Uint8Array,
  ended: InjectResponse["ended"],
): InjectResponse {
  return { status, headers, body: utf8.decode(bytes), bytes, ended };
}
