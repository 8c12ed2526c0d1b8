import { interpreter } from "../dispatch/interpret.js";
import type { PipelineOptions } from "../pipeline.js";
import type { Route } from "../tree.js";
import { type FetchHandler, fetchHandler } from "./fetch-handler.js";

export { type FetchHandler, fetchRequest } from "./fetch-handler.js";

/**
 * The lean Fetch-API handler, for an edge bundle (Cloudflare Workers, Deno Deploy, Vercel Edge): the
 * `toFetch` of `switchyard-router/fetch`, answering alike, without the two tools an edge app most
 * often does without unless it gives them:
 *
 * - **the interpreter is its dispatcher** unless `dispatcher` says otherwise (`dispatcher:
 *   defaultDispatcher` gives the full adapter's compiled one). It answers exactly as the compiled
 *   dispatcher does (the property tests hold them equal) at a cost per route, and the compiler is
 *   ~25 KB of the bundle — which buys little on workerd, which refuses code generation anyway;
 * - **no form reader** unless `forms: formReader` is given: without it `req.form()` and `req.parts()`
 *   are a `TypeError` naming the option (a 500 told to `onError`), and the form code (~16 KB) stays out.
 *
 * `export default { fetch: toFetch(tree) }`; everything else is as for the full `toFetch`.
 */
export function toFetch(tree: Route, options: PipelineOptions = {}): FetchHandler {
  return fetchHandler(tree, { ...options, dispatcher: options.dispatcher ?? interpreter });
}
