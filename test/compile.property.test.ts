import fc from "fast-check";
import {
  alt,
  Bool,
  compile,
  Day,
  Double,
  guard,
  type Handler,
  inject,
  Int,
  Int64,
  Integer,
  interpreter,
  json,
  type Middleware,
  method,
  NoParse,
  path,
  pathEnd,
  pathVar,
  type NextRoutes,
  type PathParser,
  type Reply,
  routeMismatch,
  type RouteNode,
  type RoutedRequest,
  Text,
  UUID,
  use,
  Word,
} from "../src";
import { inheritance, INHERITS_NOTHING } from "./helpers/vars";

/*
 * compile ≡ interpret, on random trees and random requests. Trees mix every node kind, every built-in
 * parser and two user ones, guards and handlers of every behaviour (sync/async, answer, mismatch,
 * throw, depending on the variables), and subtrees shared between several places. Requests are drawn
 * from the same small vocabulary as the trees, so most of them hit or nearly hit a route.
 */

/** A user parser: even integers only; throws on some input (throwing is a mismatch too). */
const Even: PathParser<number> = {
  name: "Even",
  parseUrlPiece(piece) {
    if (piece === "boom") throw new Error("parser blew up");
    const n = Int.parseUrlPiece(piece);
    return n !== NoParse && n % 2 === 0 ? n : NoParse;
  },
  toUrlPiece: String,
};
/** A user parser with a value that is an object. */
const Upper: PathParser<{ readonly upper: string }> = {
  name: "Upper",
  parseUrlPiece: (piece) => (/^[A-Z]+$/.test(piece) ? { upper: piece } : NoParse),
  toUrlPiece: (value) => value.upper,
};
const PARSERS: readonly PathParser<unknown>[] = [Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day, Even, Upper];

const LITERALS = ["a", "b", "ab", "user", "7", "007", "true", "x y", "%41", "é", "a/b", "GET", "a?b"];
const VALUES = [
  "12",
  "-3",
  "+4",
  "0",
  "1e3",
  "2.5",
  "TRUE",
  "false",
  "AB",
  "boom",
  "",
  "9007199254740993",
  "123e4567-e89b-12d3-a456-426614174000",
  "2024-02-29",
  "2023-02-29",
];
// raw forms: plain, percent-encoded, malformed escapes, an encoded slash
const RAW_EXTRA = ["%61", "%2F", "a%2Fb", "x%20y", "%zz", "%4", "%C3%A9", "%FF", "+", ".."];
const METHODS = ["GET", "POST", "DELETE"];
const REQUEST_METHODS = [...METHODS, "get", "PUT"];

type Spec =
  | { readonly kind: "method"; readonly method: string; readonly next: Spec }
  | { readonly kind: "path"; readonly literal: string; readonly next: Spec }
  | { readonly kind: "pathVar"; readonly parser: number; readonly next: Spec }
  | { readonly kind: "pathEnd"; readonly next: Spec }
  | { readonly kind: "alt"; readonly alternatives: readonly Spec[] }
  | { readonly kind: "guard"; readonly behaviour: number; readonly next: Spec }
  | { readonly kind: "use"; readonly behaviour: number; readonly next: Spec }
  | { readonly kind: "handler"; readonly behaviour: number }
  | { readonly kind: "shared"; readonly index: number };

const HANDLER_BEHAVIOURS = 8;
const GUARD_BEHAVIOURS = 7;
const MIDDLEWARE_BEHAVIOURS = 10;

function specArbitrary(withShared: boolean): fc.Arbitrary<Spec> {
  const { node } = fc.letrec<{ node: Spec }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      {
        arbitrary: fc.record({ kind: fc.constant("handler" as const), behaviour: fc.nat(HANDLER_BEHAVIOURS - 1) }),
        weight: 3,
      },
      ...(withShared
        ? [{ arbitrary: fc.record({ kind: fc.constant("shared" as const), index: fc.nat(2) }), weight: 1 }]
        : []),
      {
        arbitrary: fc.record({
          kind: fc.constant("method" as const),
          method: fc.constantFrom(...METHODS),
          next: tie("node"),
        }),
        weight: 2,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant("path" as const),
          literal: fc.oneof(
            fc.constantFrom(...LITERALS).map((l) => `/${l}`),
            fc.constantFrom("/", "/a/b", "//a/", "/user/7"),
          ),
          next: tie("node"),
        }),
        weight: 4,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant("pathVar" as const),
          parser: fc.nat(PARSERS.length - 1),
          next: tie("node"),
        }),
        weight: 3,
      },
      { arbitrary: fc.record({ kind: fc.constant("pathEnd" as const), next: tie("node") }), weight: 2 },
      {
        arbitrary: fc.record({
          kind: fc.constant("alt" as const),
          alternatives: fc.array(tie("node"), { maxLength: 4 }),
        }),
        weight: 3,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant("guard" as const),
          behaviour: fc.nat(GUARD_BEHAVIOURS - 1),
          next: tie("node"),
        }),
        weight: 1,
      },
      {
        arbitrary: fc.record({
          kind: fc.constant("use" as const),
          behaviour: fc.nat(MIDDLEWARE_BEHAVIOURS - 1),
          next: tie("node"),
        }),
        weight: 1,
      },
    ),
  }));
  return node;
}

/** Builds trees from specs; `shared` specs all become the very same node objects. */
class TreeBuilder {
  private labels = 0;
  private handlers = 0;
  private middlewares = 0;
  readonly shared: RouteNode[] = [];

  /** `calls`: where handlers and middlewares write what they did, in order (cleared per request). */
  constructor(
    sharedSpecs: readonly Spec[],
    private readonly calls: string[] = [],
  ) {
    for (const spec of sharedSpecs) this.shared.push(this.build(spec));
  }

  build(spec: Spec): RouteNode {
    switch (spec.kind) {
      case "method":
        return method(spec.method, this.build(spec.next));
      case "path":
        return path(spec.literal, this.build(spec.next));
      case "pathVar": {
        // every variable node gets its own label, so no route captures one twice; one is `__proto__`
        const n = this.labels++;
        return pathVar(n === 1 ? "__proto__" : `v${n}`, PARSERS[spec.parser]!, this.build(spec.next));
      }
      case "pathEnd":
        return pathEnd(this.build(spec.next));
      case "alt":
        return alt(...spec.alternatives.map((a) => this.build(a)));
      case "guard":
        return guard(guardBehaviour(spec.behaviour), this.build(spec.next));
      case "use":
        return use(middlewareBehaviour(this.middlewares++, spec.behaviour, this.calls), this.build(spec.next));
      case "handler":
        return {
          kind: "handler",
          handler: logged(this.handlers, this.calls, handlerBehaviour(this.handlers++, spec.behaviour)),
        };
      case "shared":
        return (
          this.shared[spec.index % Math.max(1, this.shared.length)] ?? {
            kind: "handler",
            handler: logged(this.handlers, this.calls, handlerBehaviour(this.handlers++, 0)),
          }
        );
    }
  }
}

/** What a handler shows of the request it got: everything routing decided. */
function seen(id: number, request: RoutedRequest): unknown {
  return {
    id,
    vars: request.vars,
    inherits: inheritance(request.vars),
    labels: Object.keys(request.vars),
    rest: request.rest,
    route: request.route,
  };
}

/** `handler`, writing to `calls` that it ran, with the route it was told. */
function logged(id: number, calls: string[], handler: Handler): Handler {
  return (request) => {
    calls.push(`handler ${id} ${request.route?.pattern}`);
    return handler(request);
  };
}

/** What `next()` gave a middleware, for the call log. */
function replyText(reply: Reply | null): string {
  return reply === null ? "null" : `${reply.status} ${typeof reply.body === "string" ? reply.body : "…"}`;
}

/**
 * Middlewares of every shape: transparent (sync and async), short-circuiting, refusing (`null`,
 * `routeMismatch()`), throwing, mapping errors, calling `next()` twice, or never; each writes its calls
 * and what `next()` gave it to `calls`.
 */
function middlewareBehaviour(id: number, behaviour: number, calls: string[]): Middleware {
  const inner = async (next: NextRoutes) => {
    const reply = await next();
    calls.push(`use ${id} got ${replyText(reply)}`);
    return reply;
  };
  return (request, next) => {
    calls.push(`use ${id} in ${Object.keys(request.vars).join(",")} rest ${request.rest.join("/")}`);
    switch (behaviour) {
      case 0:
        return next();
      case 1:
        return inner(next);
      case 2:
        return json({ shortCircuit: id });
      case 3:
        return null;
      case 4:
        return routeMismatch();
      case 5:
        throw new Error(`middleware ${id} failed`);
      case 6:
        return inner(next).catch((error: Error) => {
          calls.push(`use ${id} caught ${error.message}`);
          return json({ mapped: error.message }, { status: 418 });
        });
      case 7:
        return inner(next).then(async (first) => {
          const second = await next();
          calls.push(`use ${id} again ${first === second}`);
          return second === null ? null : { ...second, headers: { ...second.headers, "x-use": String(id) } };
        });
      case 8:
        // answers with its own reply when nothing inside did
        return inner(next).then((reply) => reply ?? json({ fallback: id, route: request.route ?? null }));
      default:
        return Promise.resolve().then(() => (request.rest.length % 2 === 0 ? next() : null));
    }
  };
}

function handlerBehaviour(id: number, behaviour: number): Handler {
  switch (behaviour) {
    case 0:
    case 1:
      return (request) => json(seen(id, request));
    case 2:
      return () => routeMismatch();
    case 3:
      return async (request) => json(seen(id, request));
    case 4:
      return async () => routeMismatch();
    case 5:
      // answers only when something is left over or a variable was captured
      return (request) =>
        request.rest.length > 0 || Object.keys(request.vars).length > 0 ? json(seen(id, request)) : routeMismatch();
    case 6:
      return () => {
        throw new Error(`handler ${id} failed`);
      };
    default:
      return () => Promise.resolve(`text ${id}`);
  }
}

function guardBehaviour(behaviour: number): (request: RoutedRequest) => boolean | Promise<boolean> {
  switch (behaviour) {
    case 0:
      return () => true;
    case 1:
      return () => false;
    case 2:
      return async () => true;
    case 3:
      return async () => false;
    case 4:
      return (request) => request.rest.length % 2 === 0;
    case 5:
      return (request) => Object.keys(request.vars).length > 0;
    default:
      return () => {
        throw new Error("guard failed");
      };
  }
}

const segmentArbitrary = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      ...LITERALS.filter((l) => !l.includes("/") && !l.includes("%") && !l.includes(" ") && l !== "é"),
    ),
    weight: 5,
  },
  { arbitrary: fc.constantFrom(...VALUES), weight: 4 },
  { arbitrary: fc.constantFrom(...RAW_EXTRA, "%2541", "user%2F7"), weight: 2 },
);

const requestArbitrary = fc.record({
  method: fc.constantFrom(...REQUEST_METHODS),
  url: fc
    .tuple(
      fc.array(segmentArbitrary, { maxLength: 5 }),
      fc.constantFrom("/", "/", "/", ""),
      fc.constantFrom("", "", "", "/", "?q=1", "/?a/b"),
    )
    .map(([segments, lead, tail]) => `${lead}${segments.join("/")}${tail}`),
});

/** A random tree, and the log its handlers and middlewares write their calls to. */
const loggedTreeArbitrary = fc
  .tuple(
    fc.array(specArbitrary(false), { minLength: 1, maxLength: 3 }),
    fc.array(specArbitrary(true), { minLength: 1, maxLength: 8 }),
  )
  .map(([sharedSpecs, specs]) => {
    const calls: string[] = [];
    const builder = new TreeBuilder(sharedSpecs, calls);
    return { tree: alt(...specs.map((spec) => builder.build(spec))), calls };
  });
const treeArbitrary = loggedTreeArbitrary.map(({ tree }) => tree);

/** A sample raw segment each parser accepts (and one that `Even` rejects but `Int` accepts). */
const ACCEPTED = new Map<PathParser<unknown>, readonly string[]>([
  [Int, ["12", "-3"]],
  [Int64, ["-9223372036854775808"]],
  [Integer, ["123456789012345678901234"]],
  [Word, ["0", "42"]],
  [Double, ["2.5", "1e3"]],
  [Bool, ["TRUE"]],
  [Text, ["free", "", "x%20y"]],
  [UUID, ["123E4567-e89b-12d3-a456-426614174000"]],
  [Day, ["2024-02-29"]],
  [Even, ["4", "7"]],
  [Upper, ["AB", "%41"]],
]);

/** Request paths that follow the routes of a tree (as raw segments), a few per route. */
function routePaths(tree: RouteNode, limit = 200): { method: string | null; segments: string[] }[] {
  const out: { method: string | null; segments: string[] }[] = [];
  const visit = (node: RouteNode, method: string | null, segments: string[], pick: number): void => {
    if (out.length >= limit) return;
    switch (node.kind) {
      case "method":
        return visit(node.next, node.method, segments, pick);
      case "path":
        return visit(node.next, method, [...segments, ...node.segments.map(encodeURIComponent)], pick);
      case "pathVar": {
        const samples = ACCEPTED.get(node.parser)!;
        return visit(node.next, method, [...segments, samples[pick % samples.length]!], pick + 1);
      }
      case "pathEnd":
      case "guard":
      case "use":
        return visit(node.next, method, segments, pick);
      case "alt":
        return node.alternatives.forEach((a, i) => visit(a, method, segments, pick + i));
      case "handler":
        out.push({ method, segments });
    }
  };
  visit(tree, null, [], 0);
  return out;
}

/** How a request derived from a route is bent: not at all, or into a near miss. */
const bendArbitrary = fc.record({
  route: fc.nat(),
  bend: fc.constantFrom("none", "none", "none", "extra", "drop", "trailing", "double", "method", "value", "prefix"),
  extra: segmentArbitrary,
  method: fc.constantFrom(...REQUEST_METHODS),
});

type Bend = typeof bendArbitrary extends fc.Arbitrary<infer B> ? B : never;

function bent(tree: RouteNode, { route, bend, extra, method }: Bend): { method: string; url: string } {
  const paths = routePaths(tree);
  if (paths.length === 0) return { method, url: `/${extra}` };
  const chosen = paths[route % paths.length]!;
  const segments = [...chosen.segments];
  let verb = chosen.method ?? method;
  if (bend === "extra") segments.push(extra);
  if (bend === "drop") segments.pop();
  if (bend === "value" && segments.length > 0) segments[route % segments.length] = extra;
  if (bend === "method") verb = method;
  const url = `/${segments.join("/")}`;
  if (bend === "trailing") return { method: verb, url: `${url}/` };
  if (bend === "double") return { method: verb, url: url.replace("/", "//") };
  if (bend === "prefix") return { method: verb, url: `${url}?x=/a/b` };
  return { method: verb, url };
}

/** Half arbitrary requests, half requests that follow (or nearly follow) a route of the tree. */
function requestsArbitrary(count: number) {
  return fc.array(
    fc.oneof(
      requestArbitrary.map((r) => () => r),
      bendArbitrary.map((b) => (tree: RouteNode) => bent(tree, b)),
    ),
    {
      minLength: count,
      maxLength: count,
    },
  );
}

const quiet = { onError: () => {} };

describe("compile ≡ interpret (property)", () => {
  const REQUESTS_PER_TREE = 30;

  test(`dispatch: same reply and same handler and middleware calls for every request (${700 * REQUESTS_PER_TREE} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(loggedTreeArbitrary, requestsArbitrary(REQUESTS_PER_TREE), async ({ tree, calls }, makers) => {
        const compiled = compile(tree);
        for (const request of makers.map((make) => make(tree))) {
          calls.length = 0;
          const expected = await inject(tree, request, { ...quiet, dispatcher: interpreter });
          const expectedCalls = calls.splice(0);
          const actual = await inject(tree, request, { ...quiet, dispatcher: () => compiled.dispatch });
          expect(actual).toEqual(expected);
          expect(calls).toEqual(expectedCalls);
        }
      }),
      { numRuns: 700 },
    );
  }, 120_000);

  test(`find: the first route whose method and path match, guards passing (${300 * REQUESTS_PER_TREE} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(treeArbitrary, requestsArbitrary(REQUESTS_PER_TREE), async (tree, makers) => {
        const compiled = compile(tree);
        const { reference, idOf } = findReference(tree);
        for (const request of makers.map((make) => make(tree))) {
          const found = compiled.find(request.method, request.url);
          if (found !== null) expect(inheritance(found.vars)).toEqual(INHERITS_NOTHING);
          const expected = await inject(reference, request, { ...quiet, dispatcher: interpreter });
          const actual =
            found === null
              ? null
              : {
                  id: idOf.get(found.handler),
                  vars: found.vars,
                  inherits: inheritance(found.vars),
                  labels: Object.keys(found.vars),
                  rest: found.rest,
                };
          // through the same JSON writer as the reference's reply (bigint, Day)
          expect(actual === null ? null : JSON.parse(json(actual).body as string)).toEqual(
            expected.status === 404 ? null : JSON.parse(expected.body),
          );
        }
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});

/**
 * What `find` must answer, as an interpreter run: the same tree with guards taken out and handlers
 * that always answer with their number, the variables and the rest.
 */
function findReference(tree: RouteNode): { reference: RouteNode; idOf: Map<unknown, number> } {
  const idOf = new Map<unknown, number>();
  const copies = new Map<RouteNode, RouteNode>();
  const copy = (node: RouteNode): RouteNode => {
    let result = copies.get(node);
    if (result !== undefined) return result;
    switch (node.kind) {
      case "guard":
      case "use":
        result = copy(node.next);
        break;
      case "handler": {
        if (!idOf.has(node.handler)) idOf.set(node.handler, idOf.size);
        const id = idOf.get(node.handler)!;
        // find reports no route: the reference's answer leaves it out too
        const answer = (request: RoutedRequest) => json({ ...(seen(id, request) as object), route: undefined });
        result = { kind: "handler", handler: answer } as RouteNode;
        break;
      }
      case "alt":
        result = { kind: "alt", alternatives: node.alternatives.map(copy) };
        break;
      default:
        result = { ...node, next: copy(node.next) } as RouteNode;
    }
    copies.set(node, result);
    return result;
  };
  return { reference: copy(tree), idOf };
}
