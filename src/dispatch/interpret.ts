import { NoParse, parseSegment } from "../parsers/parser.js";
import { isRouteMismatch, type Reply, toReply } from "../reply.js";
import type { RequestContext } from "../request.js";
import type { SegmentTest } from "../chains.js";
import { matchedRoute } from "../matched-route.js";
import type { Middleware, NextRoutes, RouteNode } from "../tree.js";
import { NO_VARS, type VarsRecord, varsWith } from "../vars.js";
import type { Dispatch } from "./dispatcher.js";

/*
 * The reference semantics: the spec, written as plainly as possible. Every other dispatcher must give
 * the same answers (a property test checks it). Not tuned for speed.
 */

/**
 * Where a route attempt stands: segments consumed so far, the variables captured on the way, and what
 * names the route for `req.route` (the method, the segment tests newest first, a `pathEnd` passed).
 */
interface Position {
  readonly consumed: number;
  readonly vars: VarsRecord;
  readonly method: string | null;
  readonly tests: Trail | null;
  readonly exact: boolean;
}

/** The segment tests on the way, as a list that shares its tail with the position before. */
interface Trail {
  readonly test: SegmentTest;
  readonly before: Trail | null;
}

function testsOf(trail: Trail | null): SegmentTest[] {
  const tests: SegmentTest[] = [];
  for (let t = trail; t !== null; t = t.before) tests.unshift(t.test);
  return tests;
}

function withTests(trail: Trail | null, tests: readonly SegmentTest[]): Trail | null {
  for (const test of tests) trail = { test, before: trail };
  return trail;
}

type Outcome = Reply | null;

async function run(node: RouteNode, request: RequestContext, at: Position): Promise<Outcome> {
  const segments = request.segments;
  switch (node.kind) {
    case "method":
      return request.method === node.method ? run(node.next, request, { ...at, method: node.method }) : null;
    case "path": {
      const n = node.segments.length;
      for (let i = 0; i < n; i++) {
        if (segments[at.consumed + i] !== node.segments[i]) return null;
      }
      return run(node.next, request, {
        ...at,
        consumed: at.consumed + n,
        tests: withTests(at.tests, node.segments),
      });
    }
    case "pathVar": {
      if (at.consumed >= segments.length) return null;
      const value = parseSegment(node.parser, segments[at.consumed]!);
      if (value === NoParse) return null;
      const vars = varsWith(at.vars, node.label, value);
      return run(node.next, request, { ...at, consumed: at.consumed + 1, vars, tests: withTests(at.tests, [node]) });
    }
    case "pathEnd":
      return at.consumed === segments.length ? run(node.next, request, { ...at, exact: true }) : null;
    case "alt":
      for (const alternative of node.alternatives) {
        const outcome = await run(alternative, request, at);
        if (outcome !== null) return outcome;
      }
      return null;
    case "guard":
      return (await node.predicate(request.routed(varsWith(at.vars), at.consumed) as never))
        ? run(node.next, request, at)
        : null;
    case "use":
      return aroundRoutes(node.middleware, node.next, request, at);
    case "handler": {
      request.route = matchedRoute(at.method, testsOf(at.tests), at.exact);
      const result = toReply(await node.handler(request.routed(varsWith(at.vars), at.consumed) as never));
      if (!isRouteMismatch(result)) return result;
      request.route = undefined;
      return null;
    }
  }
}

/**
 * A `use` node: the middleware's outcome, with `next()` running the routes inside once (a second call
 * gives the same promise). A rejection of `next()` that the middleware never waits for is dropped
 * here rather than left unhandled.
 */
async function aroundRoutes(
  middleware: Middleware<never>,
  inside: RouteNode,
  request: RequestContext,
  at: Position,
): Promise<Outcome> {
  let routed: Promise<Outcome> | undefined;
  const next: NextRoutes = () => {
    if (routed === undefined) {
      routed = run(inside, request, at);
      routed.catch(() => undefined);
    }
    return routed;
  };
  const result = await middleware(request.routed(varsWith(at.vars), at.consumed) as never, next);
  if (result === null) return null;
  const reply = toReply(result);
  return isRouteMismatch(reply) ? null : reply;
}

const START: Position = { consumed: 0, vars: NO_VARS, method: null, tests: null, exact: false };

/** The reference dispatcher for `tree`. */
export function interpreter(tree: RouteNode): Dispatch {
  return (request) => run(tree, request, START);
}
