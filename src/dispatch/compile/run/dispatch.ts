import { type HandlerResult, isRouteMismatch, type Reply, toReply } from "../../../reply.js";
import type { RequestContext } from "../../../request.js";
import { isThenable } from "../../../thenable.js";
import type { Middleware, NextRoutes } from "../../../tree.js";
import { copyVars, type VarsRecord } from "../../../vars.js";
import { NONE, routeOf } from "../answers.js";
import type { Program } from "./program.js";

/*
 * `dispatch` of a compiled router: the routes a request matches, run in order until one answers,
 * resuming the search after each route that turns it down, as the interpreter would.
 */

type Outcome = Reply | null | Promise<Reply | null>;

/**
 * Runs the routes of `program` that match, in order, from the one after `after`, until one answers:
 * a handler that does not return `routeMismatch()`, a guard that passes and whose routes answer, or
 * a middleware that answers. Stays synchronous until a guard, middleware or handler returns a promise
 * (or any thenable, as `await` would).
 */
export function attempt(
  program: Program,
  request: RequestContext,
  offset: number,
  inherited: VarsRecord | null,
  after: number,
): Outcome {
  for (;;) {
    const choice = program.first(request, offset, after);
    const id = routeOf(choice, program.automaton);
    if (id === NONE) return null;
    const route = program.routes[id]!;
    // as the walk made them, or bound from its records (and on top of a guard's)
    const vars =
      typeof choice !== "number" && inherited === null
        ? choice.vars
        : route.bind(inherited, program.automaton, request.path);
    const leaf = route.leaf;
    // a guard's vars are also what its routes inherit: it gets a copy, so its writes stay its own
    const routed = request.routed(leaf.kind === "handler" ? vars : copyVars(vars), offset + route.depth) as never;
    if (leaf.kind === "handler") {
      request.route = route.matchedRoute;
      const result = leaf.handler(routed);
      if (isThenable(result)) {
        return Promise.resolve(result).then((value) => {
          const reply = toReply(value as HandlerResult);
          if (!isRouteMismatch(reply)) return reply;
          request.route = undefined;
          return attempt(program, request, offset, inherited, id);
        });
      }
      const reply = toReply(result);
      if (!isRouteMismatch(reply)) return reply;
      request.route = undefined;
    } else if (leaf.kind === "use") {
      return around(leaf.middleware, routed, program, request, offset, inherited, id, vars);
    } else {
      const passed = leaf.predicate(routed);
      if (isThenable(passed)) {
        return Promise.resolve(passed).then((ok) =>
          ok ? enter(program, request, offset, inherited, id, vars) : attempt(program, request, offset, inherited, id),
        );
      }
      if (passed) return enter(program, request, offset, inherited, id, vars);
    }
    after = id;
  }
}

/**
 * A middleware ending route `id`: its outcome, with `next()` running what it is around once (a second
 * call gives the same promise); on a mismatch (`null`, `routeMismatch()`), goes on after `id`. A
 * rejection of `next()` the middleware never waits for is dropped, not left unhandled.
 */
function around(
  middleware: Middleware<never>,
  routed: never,
  program: Program,
  request: RequestContext,
  offset: number,
  inherited: VarsRecord | null,
  id: number,
  vars: VarsRecord,
): Outcome {
  let inside: Promise<Reply | null> | undefined;
  const next: NextRoutes = () => (inside ??= inner(program, request, offset, id, vars));
  const result = middleware(routed, next);
  if (isThenable(result)) {
    return (result instanceof Promise ? result : Promise.resolve(result)).then(
      (value) => outcomeOf(value as HandlerResult) ?? attempt(program, request, offset, inherited, id),
    );
  }
  return outcomeOf(result as HandlerResult) ?? attempt(program, request, offset, inherited, id);
}

/** What a middleware's result answers: a reply, or `null` for `null` and `routeMismatch()`. */
function outcomeOf(result: HandlerResult): Reply | null {
  if (result === null) return null;
  const reply = toReply(result);
  return isRouteMismatch(reply) ? null : reply;
}

/**
 * What `next()` gives the middleware ending route `id`: its program's answer, as a promise. One that
 * can reject gets a handler of its own, so that a middleware that never waits for it leaves no
 * unhandled rejection.
 */
function inner(program: Program, request: RequestContext, offset: number, id: number, vars: VarsRecord) {
  let outcome: Outcome;
  try {
    outcome = below(program, request, offset, id, vars);
  } catch (error) {
    outcome = Promise.reject(error);
  }
  if (!(outcome instanceof Promise)) return Promise.resolve(outcome);
  outcome.catch(ignore);
  return outcome;
}

function ignore(): void {}

/** Routes through what the guard ending route `id` lets through; on no answer, goes on after `id`. */
function enter(
  program: Program,
  request: RequestContext,
  offset: number,
  inherited: VarsRecord | null,
  id: number,
  vars: VarsRecord,
): Outcome {
  const inside = below(program, request, offset, id, vars);
  if (inside instanceof Promise)
    return inside.then((reply) => reply ?? attempt(program, request, offset, inherited, id));
  return inside ?? attempt(program, request, offset, inherited, id);
}

/** The routes below the gate ending route `id`, from the segment after its tests, on top of its vars. */
function below(program: Program, request: RequestContext, offset: number, id: number, vars: VarsRecord): Outcome {
  return attempt(program.continuation(id), request, offset + program.routes[id]!.depth, vars, -1);
}
