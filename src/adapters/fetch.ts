import { type PipelineOptions, withDefaults } from "../pipeline.js";
import type { Route } from "../tree.js";
import { type FetchHandler, fetchHandler } from "./fetch-handler.js";

export { type FetchHandler, fetchRequest } from "./fetch-handler.js";

/**
 * Turns a route tree into a Fetch-API handler, for every runtime that speaks `Request`/`Response`:
 * `export default { fetch: toFetch(tree) }` (Bun, Deno, Cloudflare Workers), `Deno.serve(handler)`,
 * `Bun.serve({ fetch: handler })`. No match is a 404 with an empty body. Handlers reach the `Request`
 * with {@link fetchRequest}. The runtime has already parsed the URL: its dot segments (`/a/../b`) are
 * gone before routing sees the path. It builds the compiled dispatcher and reads forms unless told
 * otherwise; `toFetch` from `switchyard-router/edge` is the same handler without either by default, for
 * a smaller bundle.
 */
export function toFetch(tree: Route, options: PipelineOptions = {}): FetchHandler {
  return fetchHandler(tree, withDefaults(options));
}
