import { DEFAULT_BODY_LIMIT } from "../body.js";
import { formReader } from "../forms/read.js";
import type { Reply } from "../reply.js";
import { adapterInput } from "../input.js";
import { type BodySettings, RequestContext, type RequestInput } from "../request.js";
import type { RouteNode } from "../tree.js";
import { interpreter } from "./interpret.js";

/*
 * `interpret(tree, request)`, apart from the interpreter itself: it reads bodies as the full adapters
 * do, form reader included, and the edge adapter (which routes with `interpreter` but carries no form
 * reader unless given one) must not bring the form code along with it.
 */

const SETTINGS: BodySettings = { bodyLimit: DEFAULT_BODY_LIMIT, forms: formReader };

/**
 * Routes one request through `tree` by the reference semantics: the reply of the first alternative
 * that answers, or `null` when none matches. Handlers run, reading bodies (forms too) as under the
 * full adapters' defaults; a handler's error rejects the promise.
 */
export function interpret(tree: RouteNode, request: RequestInput): Promise<Reply | null> {
  return Promise.resolve(interpreter(tree)(new RequestContext(adapterInput(request), SETTINGS)));
}
