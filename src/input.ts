import { type BodyInput, type BodySource, bodySource, isBodySource } from "./body.js";
import { headersOf, isRequestHeaders, NO_HEADERS } from "./headers.js";
import type { AdapterInput, RequestInput } from "./request.js";

/*
 * A request as a caller of `pipeline()` or `interpret()` may write it (a header record, a body as text,
 * bytes, a stream or an iterable) made into what the pipeline reads. Adapters hand over a reader and a
 * source themselves, so none of this is in a bundle that only serves through an adapter (the edge).
 */

/** `input` with a header reader and a body source: `input` itself when it has them already. */
export function adapterInput(input: RequestInput): AdapterInput {
  const { headers, body } = input;
  const source = body === undefined || body === null ? undefined : sourceOf(body);
  if (isRequestHeaders(headers) && source === body) return input as AdapterInput;
  // every field named: an input may keep them as getters on its prototype, which a spread would not copy
  return {
    method: input.method,
    url: input.url,
    headers: headers === undefined ? NO_HEADERS : isRequestHeaders(headers) ? headers : headersOf(headers),
    body: source,
    parsedBody: input.parsedBody,
    raw: input.raw ?? input,
    adapter: input.adapter,
  };
}

/**
 * `body` as a source: a source as it is (its whole read kept), any other shape made one on its first
 * read or stop, so that a stream is locked only once the body is read.
 */
function sourceOf(body: BodyInput): BodySource {
  if (typeof body === "object" && isBodySource(body)) return body;
  let source: BodySource | undefined;
  const open = (): BodySource => (source ??= bodySource(body));
  return { read: () => open().read(), stop: () => open().stop() };
}
