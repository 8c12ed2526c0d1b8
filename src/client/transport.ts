import type { FieldError } from "../params.js";

/*
 * How every typed client sends a request and reads its answer: through `fetch` (any Fetch-shaped
 * function: the global one, or `testFetch(app)`, which runs the app in memory); JSON as its value, text
 * as a string, anything else as bytes; a status outside 2xx rejects with a {@link ClientError}.
 */

/** The part of the Fetch API's `Response` the client reads. */
export interface ClientResponse {
  readonly status: number;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What the client sends with: the global `fetch`, or any function of its shape. */
export type ClientFetch = (
  url: string,
  init: {
    readonly method: string;
    readonly headers: Record<string, string>;
    /** Text (JSON or as given), or a form's `multipart/form-data` bytes. */
    readonly body?: string | Uint8Array;
  },
) => Promise<ClientResponse>;

/** Options of {@link client} (and of `clientFor`). */
export interface ClientOptions {
  /** Put before each path: `https://api.example.com` (no trailing slash needed); `""` by default. */
  readonly baseUrl?: string;
  /** How requests are sent: the global `fetch` unless given (`testFetch(app)` runs the app in memory). */
  readonly fetch?: ClientFetch;
  /** Headers sent with every request (an `authorization`, say). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What one call may add to its request besides the path variables. */
export interface CallInit {
  /** Query parameters: each value written with `String`, an array as a repeated key. */
  readonly query?: Readonly<Record<string, string | number | boolean | bigint | readonly (string | number)[]>>;
  /** A JSON body (sent with `content-type: application/json`), or text as it is. */
  readonly body?: unknown;
  /**
   * A form body instead (`new FormData()`: text fields and files), sent as `multipart/form-data`: what
   * `formField`, `formFile`, `@FormField` and `@File` read.
   */
  readonly form?: FormData;
  /** Headers for this request. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Why a call failed: the status (0 when no answer came), the body, and a 400's failing fields. */
export class ClientError extends Error {
  override readonly name = "ClientError";

  constructor(
    message: string,
    /** The answer's status; `0` when the request failed before any answer (the network, `fetch` itself). */
    readonly status: number,
    /** The answer's body: parsed JSON when it says JSON, else its text (`undefined` without an answer). */
    readonly body: unknown,
    /** The failing fields of a 400 that lists them (`{ errors: [...] }`); `[]` otherwise. */
    readonly errors: readonly FieldError[],
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for a {@link ClientError}. */
export function isClientError(value: unknown): value is ClientError {
  return value instanceof ClientError;
}

/**
 * Sends one request: `(method, path, init) => Promise<result>`, the path already written (by `urlFor`);
 * what every client shares.
 */
export type Transport = (method: string, path: string, init: CallInit) => Promise<unknown>;

/** The function that sends requests with these options. */
export function transport(options: ClientOptions): Transport {
  const fetcher: ClientFetch | undefined =
    options.fetch ?? (globalThis as { fetch?: ClientFetch }).fetch?.bind(globalThis);
  if (typeof fetcher !== "function") throw new TypeError("client: no fetch function: give options.fetch");
  const base = (options.baseUrl ?? "").replace(/\/+$/, "");
  const common = options.headers ?? {};
  return async (verb, path, init) => {
    const headers: Record<string, string> = { accept: "application/json, text/plain;q=0.9, */*;q=0.8" };
    for (const [name, value] of Object.entries({ ...common, ...init.headers })) headers[name.toLowerCase()] = value;
    let body: string | Uint8Array | undefined;
    if (init.form !== undefined) {
      // the Fetch API's own encoder: the boundary and each part as every runtime's fetch writes them
      const encoded = new Response(init.form);
      body = new Uint8Array(await encoded.arrayBuffer());
      headers["content-type"] = encoded.headers.get("content-type") ?? "multipart/form-data";
    } else if (init.body !== undefined) {
      if (typeof init.body === "string") body = init.body;
      else {
        body = JSON.stringify(init.body, (_key, value: unknown) => (typeof value === "bigint" ? Number(value) : value));
        headers["content-type"] ??= "application/json";
      }
    }
    const url = `${base}${path}${queryString(init.query)}`;
    let response: ClientResponse;
    try {
      response = await fetcher(url, { method: verb, headers, ...(body === undefined ? {} : { body }) });
    } catch (error) {
      throw new ClientError(
        `${verb} ${url} failed: ${error instanceof Error ? error.message : String(error)}`,
        0,
        undefined,
        [],
        { cause: error },
      );
    }
    return read(response, verb, url);
  };
}

function queryString(query: CallInit["query"]): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

const JSON_TYPE = /^application\/(?:[\w.+-]*\+)?json\s*(?:;|$)/i;

async function read(response: ClientResponse, verb: string, url: string): Promise<unknown> {
  const type = response.headers.get("content-type") ?? "";
  const ok = response.status >= 200 && response.status < 300;
  if (ok && (response.status === 204 || response.status === 205)) return undefined;
  let body: unknown;
  if (JSON_TYPE.test(type)) {
    const text = await response.text();
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch (error) {
      throw new ClientError(`${verb} ${url}: the answer is not JSON`, response.status, text, [], { cause: error });
    }
  } else if (!ok || type.startsWith("text/") || type === "") {
    body = await response.text();
    if (ok && type === "" && body === "") body = undefined;
  } else {
    body = new Uint8Array(await response.arrayBuffer());
  }
  if (ok) return body;
  const errors = fieldErrors(response.status, body);
  const said =
    typeof body === "object" && body !== null && typeof (body as { error?: unknown }).error === "string"
      ? `: ${(body as { error: string }).error}`
      : "";
  throw new ClientError(`${verb} ${url} answered ${response.status}${said}`, response.status, body, errors);
}

function fieldErrors(status: number, body: unknown): readonly FieldError[] {
  if (status !== 400 || typeof body !== "object" || body === null) return [];
  const errors = (body as { errors?: unknown }).errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : [];
}
