import type { Reply } from "../reply.js";
import type { RequestContext } from "../request.js";
import type { RouteNode } from "../tree.js";

/**
 * What adapters call: the reply of the first route that answers the request, or `null` when no
 * alternative matches (the adapter's 404). A synchronous answer is returned as is, without a promise.
 */
export type Dispatch = (request: RequestContext) => Reply | null | Promise<Reply | null>;

/** Makes the dispatch function for a tree: {@link interpreter}, or the compiled one. */
export type DispatcherFactory = (tree: RouteNode) => Dispatch;
