import type { AdapterPipeline, Fallback } from "../pipeline.js";
import { reply, type Reply } from "../reply.js";
import type { AdapterInput } from "../request.js";
import type { RouteNode } from "../tree.js";
import { allowedMethods } from "./allow.js";
import { utf8Length } from "../utf8.js";

/*
 * The pipeline's opt-in answers for a request no route took (none unless the app passes
 * `fallback: methodFallbacks(…)`, as the spec has it: a 404, no fallback): `head` answers a HEAD with the GET route (the adapter drops the body, as
 * it does for every HEAD), `methodNotAllowed` answers 405 with `Allow` when the path is routed under
 * other methods only. Both are decided over the tree, so every dispatcher and adapter agrees.
 */

/** The opt-in method answers of the pipeline. */
export interface MethodFallbacks {
  /** A request whose path a route accepts under other methods only gets 405 with `Allow`. Default off. */
  readonly methodNotAllowed?: boolean;
  /** A HEAD that no route answers is answered by the GET route (body dropped, headers kept). Default off. */
  readonly head?: boolean;
}

/**
 * The pipeline option `fallback` for 405 and HEAD: `toFetch(app, { fallback: methodFallbacks({
 * methodNotAllowed: true, head: true }) })`. Only `true` turns one on; with none on, the pipeline is
 * left as it is.
 */
export function methodFallbacks(options: MethodFallbacks): Fallback {
  return (tree, route) => withMethodFallbacks(tree, route, options);
}

/** `route` with the fallbacks `options` turns on; `route` itself when none is on. */
function withMethodFallbacks(tree: RouteNode, route: AdapterPipeline, options: MethodFallbacks): AdapterPipeline {
  const head = options.head === true;
  const methodNotAllowed = options.methodNotAllowed === true;
  if (!head && !methodNotAllowed) return route;
  const unanswered = (input: AdapterInput): Reply | null | Promise<Reply | null> => {
    if (head && input.method === "HEAD") {
      const asGet = then(route(asGetRequest(input)), withLength);
      return methodNotAllowed ? after(asGet, () => notAllowed(tree, input, head)) : asGet;
    }
    return methodNotAllowed ? notAllowed(tree, input, head) : null;
  };
  return (input) => after(route(input), () => unanswered(input));
}

/**
 * The HEAD request as a GET, every field named: an adapter's input may keep them as getters on its
 * prototype (the Fetch adapter's `headers` and `body`), which a spread would not copy.
 */
function asGetRequest(input: AdapterInput): AdapterInput {
  const { url, headers, body, parsedBody, raw, adapter } = input;
  return { method: "GET", url, headers, body, parsedBody, raw, adapter };
}

/** What `f` makes of the reply (sync stays sync). */
function then(
  outcome: Reply | null | Promise<Reply | null>,
  f: (reply: Reply | null) => Reply | null,
): Reply | null | Promise<Reply | null> {
  return outcome instanceof Promise ? outcome.then(f) : f(outcome);
}

/**
 * The GET reply for a HEAD, with the `content-length` the GET would have had (a HEAD's answer names
 * it; the adapter, seeing a HEAD, sends no body and would not count it).
 */
function withLength(got: Reply | null): Reply | null {
  if (got === null || got.headers["content-length"] !== undefined) return got;
  const body = got.body;
  const length = typeof body === "string" ? utf8Length(body) : body instanceof Uint8Array ? body.length : undefined;
  return length === undefined
    ? got
    : reply({ status: got.status, headers: { ...got.headers, "content-length": String(length) }, body });
}

/** `outcome`, or what `next` gives when it is `null` (sync stays sync). */
function after(
  outcome: Reply | null | Promise<Reply | null>,
  next: () => Reply | null | Promise<Reply | null>,
): Reply | null | Promise<Reply | null> {
  if (outcome instanceof Promise) return outcome.then((reply) => reply ?? next());
  return outcome ?? next();
}

/** 405 with `Allow` when the path is routed under other methods only; else `null` (the 404 stands). */
function notAllowed(tree: RouteNode, input: AdapterInput, head: boolean): Reply | null {
  const allowed = allowedMethods(tree, input.url);
  if (allowed === "any" || allowed.length === 0 || allowed.includes(input.method)) return null;
  const methods = head && allowed.includes("GET") && !allowed.includes("HEAD") ? [...allowed, "HEAD"] : allowed;
  // a HEAD the GET route declined is a 404, as the GET is
  if (head && input.method === "HEAD" && methods.includes("HEAD")) return null;
  return reply({ status: 405, headers: { allow: methods.join(", ") } });
}
