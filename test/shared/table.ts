import type { InjectResponse } from "../../src/index.js";
import { cases, type TableCase, type TableRequest } from "./behaviour.cjs";

/*
 * Running the shared behaviour table (behaviour.cjs) through one client: every client's answer is
 * brought to one shape (`Observed`), then checked against the case.
 */

/** An answer as every client can report it. */
export interface Observed {
  readonly status: number;
  /** Lower-case names; repeated values joined with ", "; set-cookie is kept apart. */
  readonly headers: ReadonlyMap<string, string>;
  readonly setCookie: readonly string[];
  /** What arrived of the body. */
  readonly body: Uint8Array;
  /** The body failed after the headers (the server cut the connection). */
  readonly cut: boolean;
}

/** Sends one table request and reports the answer. */
export type Send = (request: TableRequest) => Promise<Observed>;

/** Where a runtime legitimately answers a case otherwise: why, and the check that holds there instead. */
export interface Difference {
  readonly why: string;
  readonly expect: (observed: Observed, c: TableCase) => void;
}

/**
 * One jest test per table case, each sent with `send()` (read when the test runs, after `beforeAll`).
 * `differences` (by case name) replace a case's check for this client only.
 */
export function runTable(send: () => Send, differences: Readonly<Record<string, Difference>> = {}): void {
  const unknown = Object.keys(differences).filter((name) => !cases.some((c) => c.name === name));
  if (unknown.length > 0) throw new Error(`differences name no table case: ${unknown.join(", ")}`);
  test.each(cases.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    const observed = await send()(c.request);
    const difference = differences[name];
    if (difference === undefined) expectCase(c, observed);
    else difference.expect(observed, c);
  });
}

/**
 * What `fetch(url, init)` or `new Request(url, init)` needs to send a table request. Redirects are not
 * followed: a redirect case checks the 3xx itself, as inject sees it.
 */
export function fetchInit(request: TableRequest): RequestInit {
  const body = request.body ?? null;
  const init = { method: request.method ?? "GET", headers: request.headers ?? {}, redirect: "manual" } as const;
  if (!request.streamed || body === null) return { ...init, body };
  return { ...init, body: streamOf(body), duplex: "half" };
}

/** A body as a stream of two chunks: sent chunked, with no content-length. */
function streamOf(body: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const half = bytes.length >> 1;
  const chunks = [bytes.subarray(0, half), bytes.subarray(half)];
  return new ReadableStream({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
}

/** `fetch(url, init)`, read whole (see {@link observeFetching}). */
export function observeFetch(url: string, init: RequestInit): Promise<Observed> {
  return observeFetching(fetch(url, init));
}

/** A cut before any answer: no status, no body. */
const CUT_BEFORE_STATUS: Observed = {
  status: 0,
  headers: new Map(),
  setCookie: [],
  body: new Uint8Array(0),
  cut: true,
};

/**
 * An answer on its way from a server, read whole. A connection the server closed before the headers
 * arrived is a cut without a status (node:http cuts a failing stream before its corked first write
 * goes out; a server that answers while the upload is still coming may close on it).
 */
export async function observeFetching(fetching: Promise<Response>): Promise<Observed> {
  let response: Response;
  try {
    response = await fetching;
  } catch (error) {
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    if (code === "UND_ERR_SOCKET" || code === "ECONNRESET" || code === "EPIPE") return CUT_BEFORE_STATUS;
    throw error;
  }
  return observeResponse(response);
}

/** A Fetch `Response` (from `fetch` or a Fetch handler), read whole. */
export async function observeResponse(response: Response): Promise<Observed> {
  const headers = new Map<string, string>();
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers.set(name, value);
  });
  let body = new Uint8Array(0);
  let cut = false;
  try {
    body = new Uint8Array(await response.arrayBuffer());
  } catch {
    cut = true;
  }
  return { status: response.status, headers, setCookie: response.headers.getSetCookie(), body, cut };
}

/** A `testClient`/`inject` answer. */
export function observeInject(response: InjectResponse): Observed {
  const headers = new Map<string, string>();
  let setCookie: readonly string[] = [];
  for (const [name, value] of Object.entries(response.headers)) {
    const values = typeof value === "string" ? [value] : value;
    if (name === "set-cookie") setCookie = values;
    else headers.set(name, values.join(", "));
  }
  return { status: response.status, headers, setCookie, body: response.bytes, cut: response.ended === "cut" };
}

const utf8 = new TextDecoder();

/** Checks one answer against its case. */
export function expectCase(c: TableCase, observed: Observed): void {
  // a cut may come before the status line (see observeFetch); a cut it must be, and any status it had, the case's
  if (!(c.cut === true && observed.cut && observed.status === 0)) expect(observed.status).toBe(c.status);
  for (const [name, value] of Object.entries(c.headers ?? {})) {
    expect([name, observed.headers.get(name)]).toEqual([name, value]);
  }
  for (const name of c.absent ?? []) {
    expect([name, observed.headers.get(name)]).toEqual([name, undefined]);
  }
  if (c.setCookie !== undefined) expect(observed.setCookie).toEqual(c.setCookie);
  expect(observed.cut).toBe(c.cut === true);
  const text = utf8.decode(observed.body);
  if (c.text !== undefined) expect(text).toBe(c.text);
  if (c.json !== undefined) expect(JSON.parse(text)).toEqual(c.json);
  if (c.errorMatching !== undefined) expect((JSON.parse(text) as { error: unknown }).error).toMatch(c.errorMatching);
  if (c.bytes !== undefined) {
    // compared whole, but reported by length and first difference (a 256 KiB diff helps nobody)
    expect(firstDifference(observed.body, c.bytes)).toEqual({ length: c.bytes.length, at: -1 });
  }
}

function firstDifference(actual: Uint8Array, expected: Uint8Array): { length: number; at: number } {
  const n = Math.min(actual.length, expected.length);
  for (let i = 0; i < n; i++) if (actual[i] !== expected[i]) return { length: actual.length, at: i };
  return { length: actual.length, at: actual.length === expected.length ? -1 : n };
}
