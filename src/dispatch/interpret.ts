import { NoParse, parseSegment } from "../parsers/parser.js";
import { isRouteMismatch, type Reply, toReply } from "../reply.js";
import { RequestContext, type RequestInput } from "../request.js";
import type { RouteNode } from "../tree.js";
import { copyVars, extendVars, NO_VARS, type Vars } from "../vars.js";
import type { Dispatch } from "./dispatcher.js";

/*
 * The reference semantics: the spec, written as plainly as possible. Every other dispatcher must give
 * the same answers (a property test checks it). Not tuned for speed.
 */

/** Where a route attempt stands: segments consumed so far and the variables captured on the way. */
interface Position {
  readonly consumed: number;
  readonly vars: Vars;
}

type Outcome = Reply | null;

async function run(node: RouteNode, request: RequestContext, at: Position): Promise<Outcome> {
  const segments = request.segments;
  switch (node.kind) {
    case "method":
      return request.method === node.method ? run(node.next, request, at) : null;
    case "path": {
      const n = node.segments.length;
      for (let i = 0; i < n; i++) {
        if (segments[at.consumed + i] !== node.segments[i]) return null;
      }
      return run(node.next, request, { consumed: at.consumed + n, vars: at.vars });
    }
    case "pathVar": {
      if (at.consumed >= segments.length) return null;
      const value = parseSegment(node.parser, segments[at.consumed]!);
      if (value === NoParse) return null;
      const vars = extendVars(at.vars, [node.label], [value]);
      return run(node.next, request, { consumed: at.consumed + 1, vars });
    }
    case "pathEnd":
      return at.consumed === segments.length ? run(node.next, request, at) : null;
    case "alt":
      for (const alternative of node.alternatives) {
        const outcome = await run(alternative, request, at);
        if (outcome !== null) return outcome;
      }
      return null;
    case "guard":
      return (await node.predicate(request.routed(copyVars(at.vars), at.consumed) as never))
        ? run(node.next, request, at)
        : null;
    case "handler": {
      const result = toReply(await node.handler(request.routed(copyVars(at.vars), at.consumed) as never));
      return isRouteMismatch(result) ? null : result;
    }
  }
}

const START: Position = { consumed: 0, vars: NO_VARS };

/** The reference dispatcher for `tree`. */
export function interpreter(tree: RouteNode): Dispatch {
  return (request) => run(tree, request, START);
}

/**
 * Routes one request through `tree` by the reference semantics: the reply of the first alternative
 * that answers, or `null` when none matches. Handlers run; a handler's error rejects the promise.
 */
export function interpret(tree: RouteNode, request: RequestInput): Promise<Reply | null> {
  return run(tree, new RequestContext(request), START);
}
