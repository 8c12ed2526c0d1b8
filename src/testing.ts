import { pipeline, type ApplicationOptions } from "./adapters/node.js";
import { standInMessage } from "./adapters/stand-in.js";
import type { Reply } from "./reply.js";
import { readText } from "./body.js";
import { RequestContext } from "./request.js";
import type { Route } from "./tree.js";
import type { IncomingHttpHeaders } from "node:http";
import { Readable } from "node:stream";

/** A request for {@link inject}. */
export interface InjectRequest {
  /** `GET` unless given. */
  readonly method?: string;
  readonly url: string;
  readonly headers?: IncomingHttpHeaders;
  readonly body?: string | Uint8Array;
}

/** What {@link inject} answers. */
export interface InjectResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body: string;
}

/**
 * Sends one request through the same pipeline as {@link toApplication}, without a socket: for tests.
 * A handler that throws gives status 500, as in a server.
 */
export async function inject(tree: Route, request: InjectRequest, options: ApplicationOptions = {}): Promise<InjectResponse> {
  const input = { method: request.method ?? "GET", url: request.url, headers: request.headers ?? {}, body: request.body };
  const reply = await pipeline(tree, options)(new RequestContext(input, standInMessage));
  return { status: reply.status, headers: reply.headers, body: await bodyText(reply) };
}

async function bodyText(reply: Reply): Promise<string> {
  const body = reply.body;
  if (body === null) return "";
  if (typeof body === "string") return body;
  if (body instanceof Readable) return readText(body);
  return Buffer.from(body).toString("utf8");
}
