import { type HandlerResult, isRouteMismatch, type Reply, toReply } from "../../../reply.js";
import type { RequestContext } from "../../../request.js";
import { isThenable } from "../../../thenable.js";
import { copyVars, type Vars } from "../../../vars.js";
import { NONE, routeOf } from "../answers.js";
import type { Program } from "./program.js";

/*
 * `dispatch` of a compiled router: the routes a request matches, run in order until one answers,
 * resuming the search after each route that turns it down, as the interpreter would.
 */

type Outcome = Reply | null | Promise<Reply | null>;

/**
 * Runs the routes of `program` that match, in order, from the one after `after`, until one answers:
 * a handler that does not return `routeMismatch()`, or a guard that passes and whose routes answer.
 * Stays synchronous until a guard or handler returns a promise (or any thenable, as `await` would).
 */
export function attempt(
  program: Program,
  request: RequestContext,
  offset: number,
  inherited: Vars | null,
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
      const result = leaf.handler(routed);
      if (isThenable(result)) {
        return Promise.resolve(result).then((value) => {
          const reply = toReply(value as HandlerResult);
          return isRouteMismatch(reply) ? attempt(program, request, offset, inherited, id) : reply;
        });
      }
      const reply = toReply(result);
      if (!isRouteMismatch(reply)) return reply;
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

/** Routes through what the guard ending route `id` lets through; on no answer, goes on after `id`. */
function enter(
  program: Program,
  request: RequestContext,
  offset: number,
  inherited: Vars | null,
  id: number,
  vars: Vars,
): Outcome {
  const inner = attempt(program.continuation(id), request, offset + program.routes[id]!.depth, vars, -1);
  if (inner instanceof Promise) return inner.then((reply) => reply ?? attempt(program, request, offset, inherited, id));
  return inner ?? attempt(program, request, offset, inherited, id);
}
