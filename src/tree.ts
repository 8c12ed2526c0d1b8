import { isMethodToken, type Method } from "./methods.js";
import { isParser, type PathParser } from "./parsers/parser.js";
import type { HandlerResultFor } from "./contract-types.js";
import type { HandlerResult, Reply } from "./reply.js";
import type { RoutedRequest } from "./request.js";
import { withContractCheck } from "./contract-check.js";
import { schemaParser } from "./schema/path-type.js";
import { isStandardSchema, type StandardSchema } from "./schema/standard.js";
import type { NotAHandler, ServedBy, ServedByEach, ServedRoute, Serves } from "./served.js";

/*
 * The route tree: plain, immutable (frozen) data, so one subtree can be mounted in several places and
 * a compiled dispatcher can never go stale. Every way of writing routes builds it; every dispatcher reads
 * it. Only `path`, `pathVar` and `pathEnd` look at path segments, so a compiler can reason about paths.
 */

/** Captured path variables, by label. */
export type Vars = object;

/** A request handler: gets the routed request, returns a reply, a plain value or `routeMismatch()`. */
export type Handler<V extends Vars = Record<string, unknown>> = (
  request: RoutedRequest<V>,
) => HandlerResult | Promise<HandlerResult>;

/** A user routing criterion (spec 1.2): `false` (or a promise of it) is a mismatch. */
export type GuardPredicate<V extends Vars = Record<string, unknown>> = (
  request: RoutedRequest<V>,
) => boolean | Promise<boolean>;

/**
 * What `next()` gives a middleware: the reply of the first route inside it that answers, or `null` when
 * none does. It runs the routes inside once: calling it again gives the same promise.
 */
export type NextRoutes = () => Promise<Reply | null>;

/**
 * A middleware (spec 1.2's "further middlewares"): runs when the walk reaches it, may call `next()` to
 * try the routes inside, and returns the node's outcome — a reply or any handler result answers;
 * `null` or `routeMismatch()` is a mismatch, so the walk goes on after the node.
 */
export type Middleware<V extends Vars = Record<string, unknown>> = (
  request: RoutedRequest<V>,
  next: NextRoutes,
) => HandlerResult | Promise<HandlerResult>;

/** `method(m, next)`: the request method must equal `method`. */
export interface MethodNode {
  readonly kind: "method";
  readonly method: string;
  readonly next: RouteNode;
}
/** `path(literal, next)`: the next segments must equal `segments`. */
export interface PathNode {
  readonly kind: "path";
  /** Normalized: `/` and the non-empty pieces joined by `/`. */
  readonly literal: string;
  readonly segments: readonly string[];
  readonly next: RouteNode;
}
/** `pathVar(label, parser, next)`: the next segment must parse; its value is captured as `label`. */
export interface PathVarNode {
  readonly kind: "pathVar";
  readonly label: string;
  readonly parser: PathParser<unknown>;
  readonly next: RouteNode;
}
/** `pathEnd(next)`: no segment may remain. */
export interface PathEndNode {
  readonly kind: "pathEnd";
  readonly next: RouteNode;
}
/** `alt(a, b, …)`: alternatives tried left to right. */
export interface AltNode {
  readonly kind: "alt";
  readonly alternatives: readonly RouteNode[];
}
/** `guard(predicate, next)`: a user criterion; `false` is a mismatch. */
export interface GuardNode {
  readonly kind: "guard";
  readonly predicate: GuardPredicate<never>;
  readonly next: RouteNode;
}
/** `use(middleware, next)`: runs around the routes inside (see {@link Middleware}). */
export interface UseNode {
  readonly kind: "use";
  readonly middleware: Middleware<never>;
  readonly next: RouteNode;
}
/** A leaf: the user's handler. */
export interface HandlerNode {
  readonly kind: "handler";
  readonly handler: Handler<never>;
  /** What tools may show about the handler (listing, OpenAPI, `urlFor`); routing ignores it. */
  readonly info?: HandlerInfo;
}

/**
 * Facts about a handler for the tools that read the tree (route listing, OpenAPI, `urlFor`). Any front
 * end may fill it (the decorators do, for controller methods); dispatch never looks at it.
 */
export interface HandlerInfo {
  /** The handler's name in listings and the OpenAPI `operationId` (`Users.byId`); the function's name by default. */
  readonly name?: string;
  /** Another key `urlFor` accepts for this handler's route (a controller method: `Users.prototype.byId`). */
  readonly target?: object;
  /** OpenAPI tags (a controller's name). */
  readonly tags?: readonly string[];
  /** OpenAPI summary. */
  readonly summary?: string;
  /** OpenAPI description. */
  readonly description?: string;
  /**
   * The replies by status code (`{ 200: { description: "the user", schema: User } }`): OpenAPI response
   * objects, where `schema` (any {@link JsonSchemaSource}) stands for `content` of `contentType`
   * (`application/json` unless given).
   */
  readonly responses?: Readonly<Record<string, ResponseInfo>>;
  /**
   * The route's response contract, over the app's `contracts` option: a JSON reply whose status has a
   * Standard Schema or DTO class in `responses` is `"check"`ed (a reply that breaks it is a 500 told to
   * `onError`, never sent) or `"strip"`ped (sent with the schema's output: only the declared fields);
   * `"off"`: none, whatever the app says. The pipeline wraps the handler; dispatch never looks at it.
   */
  readonly contract?: "strip" | "check" | "off";
  /** What the handler reads besides the path (query, header and cookie values, a body), for OpenAPI. */
  readonly inputs?: readonly HandlerInput[];
  /** Left out of the OpenAPI document (the docs page's own routes). */
  readonly hidden?: boolean;
}

/** One reply of {@link HandlerInfo.responses}: an OpenAPI response object, with `schema` as a shorthand for `content`. */
export interface ResponseInfo {
  /** What the reply means (the status's reason phrase when left out). */
  readonly description?: string;
  /** The body's schema. */
  readonly schema?: JsonSchemaSource;
  /** The body's media type when `schema` is given; `application/json` by default. */
  readonly contentType?: string;
  /** Other fields of an OpenAPI response object (`headers`, `content`, `links`), as they are. */
  readonly [field: string]: unknown;
}

/**
 * One input a handler reads besides its path variables: a query, header or cookie value read with a
 * path-type parser or a schema (`queryParam`, `@Query`, `@Cookie`), the whole query as one object
 * (`queryObject`), a body (`body`, `@Body`), or a form's text fields and files (`@FormField`, `@File`,
 * `@Files`, or the whole form `@Form`: together, the operation's `multipart/form-data` request body).
 */
export type HandlerInput =
  | {
      readonly in: "query" | "header" | "cookie";
      readonly name: string;
      readonly parser: PathParser<unknown>;
      /** A missing value is refused (a 400); `false` when the handler accepts it missing. */
      readonly required: boolean;
      /** A repeated query key read as an array. */
      readonly array?: boolean;
      /** The value's schema, instead of the parser's (for a value a schema validates). */
      readonly schema?: JsonSchemaSource;
      /** OpenAPI description of the parameter. */
      readonly description?: string;
    }
  | {
      /** The whole query read as one object (`queryObject`): each property of `schema` is a query parameter. */
      readonly in: "queryObject";
      readonly schema: JsonSchemaSource;
    }
  | {
      readonly in: "body";
      /** The body's type name (a DTO class's name): its schema's name in the OpenAPI components. */
      readonly type?: string;
      /** Its schema, when the front end can tell one; any JSON object otherwise. */
      readonly schema?: JsonSchemaSource;
      /** Its media type; `application/json` by default. */
      readonly contentType?: string;
      /** A missing body is refused; `true` by default. */
      readonly required?: boolean;
    }
  | {
      /** A text field of a form body (`formField`, `@FormField`), read with `parser`. */
      readonly in: "formField";
      readonly name: string;
      readonly parser: PathParser<unknown>;
      /** A missing field is refused (a 400). */
      readonly required: boolean;
      /** The field's schema, instead of the parser's (for a field a schema validates). */
      readonly schema?: JsonSchemaSource;
    }
  | {
      /** The whole form read as one object (`formObject`, `@Form`): each property of `schema` is a field or a file. */
      readonly in: "formObject";
      readonly schema: JsonSchemaSource;
    }
  | {
      /** A file of a multipart form body: one (`formFile`, `@File`), or every one of the name (`formFiles`, `@Files`). */
      readonly in: "formFile";
      readonly name: string;
      /** A missing file is refused (a 400). */
      readonly required: boolean;
      /** Every file sent under the name. */
      readonly array?: boolean;
    };

/**
 * A schema the tools can read as JSON Schema: a JSON Schema object (draft 2020-12, what OpenAPI 3.1
 * reads), a value with the Standard JSON Schema interface (`~standard.jsonSchema`: zod 4, arktype 2,
 * valibot through `toStandardJsonSchema` of `@valibot/to-json-schema`), a class-validator DTO class
 * (read once `switchyard-router/decorators` is loaded), or `[schema]` for an array of its values.
 */
export type JsonSchemaSource =
  | JsonSchemaObject
  | StandardJsonSchema
  | (abstract new (
      ...args: never
    ) => object)
  | readonly [JsonSchemaSource];

/** A JSON Schema object. */
export type JsonSchemaObject = { readonly [keyword: string]: unknown };

/** The Standard JSON Schema interface (version 1): a value whose `~standard.jsonSchema` gives its JSON Schema. */
export interface StandardJsonSchema {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly jsonSchema: {
      /** The JSON Schema of the values it accepts, for `target` (`"draft-2020-12"`); may throw. */
      input(options: { readonly target: string }): Record<string, unknown>;
      /** The JSON Schema of the values it gives; may throw. */
      output(options: { readonly target: string }): Record<string, unknown>;
    };
  };
}

/** Any node of the route tree. */
export type RouteNode = MethodNode | PathNode | PathVarNode | PathEndNode | AltNode | GuardNode | UseNode | HandlerNode;

declare const needsVars: unique symbol;

/**
 * The variables `V` a route's handlers need, for the type checker only. An interface, so that
 * declaration files that mention a route can name it (its key could not be named inline).
 */
export interface NeedsVars<V extends Vars> {
  readonly [needsVars]?: (vars: V) => void;
}

/**
 * A route tree whose handlers need the path variables `V` from the routes above it. A route that
 * needs nothing (`Route<{}>`) can be served; one that needs `{ id: number }` must sit under a
 * `pathVar("id", Int, …)`. `V` exists only for the type checker.
 */
export type Route<V extends Vars = {}> = RouteNode & NeedsVars<V>;

/** The variable a `pathVar` adds: `T` under `L`. */
export type Captured<L extends string, T> = { readonly [K in L]: NoInfer<T> };

/** Where a route takes its "next arrow": a route tree, or a handler function. */
export type Next<V extends Vars = {}> = Route<V> | Handler<V>;

/**
 * A "next arrow" as the builders read it, for the typed client: a tree serving `S`, or a handler
 * returning `R` (each inferred from the argument; the other keeps its default).
 */
export type NextServing<V extends Vars, S, R extends HandlerResult | Promise<HandlerResult>> =
  | (Route<V> & Serves<S>)
  | ((request: RoutedRequest<V>) => R);

const NODE_KINDS: ReadonlySet<string> = new Set([
  "method",
  "path",
  "pathVar",
  "pathEnd",
  "alt",
  "guard",
  "use",
  "handler",
]);

/** The node a "next" argument stands for (a function becomes a handler leaf); `where` names the caller in the error. */
export function toNode(next: Next<never>, where: string): RouteNode {
  return nodeOf(next) ?? notANext(next, where);
}

/**
 * {@link toNode}, or null when `next` is neither a route nor a function: for callers whose name in
 * the error is made from their arguments, so that it is made only for the error.
 */
export function nodeOf(next: unknown): RouteNode | null {
  if (typeof next === "function") return Object.freeze({ kind: "handler", handler: next as Handler<never> });
  if (typeof next === "object" && next !== null && NODE_KINDS.has((next as RouteNode).kind)) return next as RouteNode;
  return null;
}

/** The error for a "next" argument that is neither a route nor a handler function. */
export function notANext(next: unknown, where: string): never {
  throw new TypeError(`${where}: expected a route or a handler function, got ${describe(next)}`);
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

/**
 * A handler leaf carrying `info` for the tools (listing, OpenAPI, `urlFor`); routes exactly as the bare
 * function would. When `info.responses` declares a schema for 200 (else `2XX`), a handler whose plain
 * result that schema cannot accept is a type error (see `HandlerResultFor`).
 */
export function described<
  V extends Vars = {},
  I extends HandlerInfo = HandlerInfo,
  const R extends HandlerResultFor<I> = HandlerResultFor<I>,
>(
  handler: (request: RoutedRequest<V>) => R | Promise<R>,
  info: I,
): Route<V> & Serves<ServedRoute<"*", "/*", {}, R, I>> {
  if (typeof handler !== "function")
    throw new TypeError(`described: expected a handler function, got ${describe(handler)}`);
  const node: HandlerNode = Object.freeze({
    kind: "handler",
    handler: handler as Handler<never>,
    info: Object.freeze({ ...info }),
  });
  // a leaf that declares responses brings the code that runs its contract: an app without one lacks it
  return (info.responses === undefined ? node : withContractCheck(node)) as Route<V> &
    Serves<ServedRoute<"*", "/*", {}, R, I>>;
}

/**
 * What `alt` gives: the one alternative itself (a handler function as its leaf), or an `alt` node
 * serving what every alternative serves. Each is one object type, not a union with a member per kind
 * of node (see `PatternNode`): the typed client reads an `alt` of 500 routes ~8 times faster.
 */
type AltResult<V extends Vars, A extends readonly unknown[]> = number extends A["length"]
  ? Route<V> & Serves<ServedByEach<A[number]>> // a spread array: one node or many
  : A extends readonly [infer Only]
    ? Only extends RouteNode
      ? Only & NeedsVars<V>
      : HandlerNode & NeedsVars<V> & Serves<ServedByEach<Only>>
    : AltNode & NeedsVars<V> & Serves<ServedByEach<A[number]>>;

/** Spec 4.2 `method`: the request method must equal `m` exactly (`GET` ≠ `get`). */
export function method<V extends Vars = {}>(m: Method, next: Next<V>): Route<V> {
  if (typeof m !== "string" || !isMethodToken(m)) {
    throw new TypeError(`method: ${JSON.stringify(m)} is not an upper-case method token such as "GET"`);
  }
  return methodNode(m, toNode(next, "method"));
}

/*
 * The nodes themselves, for arguments already checked: the public builders check theirs first, and
 * the pattern builder (`pattern/build.ts`) builds from what its grammar checked, so an app that writes
 * only patterns does not carry the checks (nor `pathVar`'s reading of a Standard Schema).
 */

/** A `method` node; `m` is an upper-case method token. */
export function methodNode(m: string, next: RouteNode): MethodNode {
  return Object.freeze({ kind: "method", method: m, next });
}

/** A `path` node; `literal` is `/` and the non-empty `segments` joined by `/`. */
export function pathNode(literal: string, segments: string[], next: RouteNode): PathNode {
  return Object.freeze({ kind: "path", literal, segments: Object.freeze(segments), next });
}

/** A `pathVar` node; `label` is captured nowhere in `next`. */
export function pathVarNode(label: string, parser: PathParser<unknown>, next: RouteNode): PathVarNode {
  return Object.freeze({ kind: "pathVar", label, parser, next });
}

/**
 * Spec 4.2 `path`: the next segments must equal the literal's pieces (`path("/a/b")` consumes two).
 * Empty pieces are dropped, so `path("/")` consumes nothing. Literals are compared, case-sensitively,
 * with the percent-decoded segments.
 */
export function path<V extends Vars = {}>(literal: string, next: Next<V>): Route<V> {
  if (typeof literal !== "string") throw new TypeError(`path: expected a string literal, got ${describe(literal)}`);
  // most literals are normalized already (`/a/b`): then they are their own spelling
  const normalized =
    literal.length > 1 &&
    literal.charCodeAt(0) === 47 /* / */ &&
    literal.charCodeAt(literal.length - 1) !== 47 &&
    !literal.includes("//");
  const segments = !normalized
    ? literal.split("/").filter((piece) => piece !== "")
    : literal.indexOf("/", 1) === -1
      ? [literal.slice(1)]
      : literal.slice(1).split("/");
  return pathNode(normalized ? literal : `/${segments.join("/")}`, segments, toNode(next, "path"));
}

/**
 * Spec 4.2 `pathVar`: the next segment must parse with `parser`; its value is captured as `label`.
 * A segment that does not parse is a mismatch. A label already captured further in is an error.
 * `parser` may be a synchronous Standard Schema (zod, valibot, arktype): it is read as
 * `schemaParser("Schema", schema)` reads it (an asynchronous one is refused here).
 */
export function pathVar<L extends string, T, V extends Vars = {}>(
  label: L,
  parser: PathParser<T> | StandardSchema<unknown, T>,
  next: Route<Captured<L, T>> | Next<NoInfer<V> & Captured<L, T>>,
): Route<V> {
  if (typeof label !== "string" || label === "") throw new TypeError("pathVar: the label must be a non-empty string");
  if (!isParser(parser) && isStandardSchema(parser)) parser = schemaParser("Schema", parser);
  if (!isParser(parser)) {
    throw new TypeError(
      `pathVar("${label}"): expected a parser (an object or class with parseUrlPiece) or a Standard Schema, got ${describe(parser)}`,
    );
  }
  const node = nodeOf(next) ?? notANext(next, `pathVar("${label}")`);
  if (captures(node, label)) {
    throw new TypeError(`pathVar: the label "${label}" is captured twice on one route`);
  }
  return pathVarNode(label, parser as PathParser<unknown>, node);
}

/** Spec 4.2 `pathEnd`: succeeds only when no path segment remains. */
export function pathEnd<V extends Vars = {}>(next: Next<V>): Route<V> {
  return Object.freeze({ kind: "pathEnd", next: toNode(next, "pathEnd") });
}

/**
 * The spec's `<+>`: alternatives are tried left to right and the first that matches answers.
 * `alt(a)` is `a` itself; `alt()` never matches.
 */
export function alt<V extends Vars = {}, const A extends readonly Next<V>[] = []>(
  // `| Next<V>[]`: while `A` is inferred, the alternatives are typed by `V` alone, so a route inside
  // still learns its enclosing variables from here (with `A` only, it would see none)
  ...alternatives: A | readonly Next<V>[]
): AltResult<V, A> {
  const nodes = alternatives.map((a, i) => nodeOf(a) ?? notANext(a, `alt (alternative ${i + 1})`));
  return (
    nodes.length === 1 ? nodes[0]! : Object.freeze({ kind: "alt", alternatives: Object.freeze(nodes) })
  ) as AltResult<V, A>;
}

/**
 * A user-defined routing criterion (spec 1.2): `predicate` sees the request and the variables captured
 * so far; `false` (sync or async) is a mismatch, so the next alternative is tried.
 */
export function guard<V extends Vars = {}, S = never, R extends HandlerResult | Promise<HandlerResult> = NotAHandler>(
  predicate: GuardPredicate<V>,
  next: NextServing<V, S, R>,
): GuardNode & NeedsVars<V> & Serves<ServedBy<S, R>> {
  if (typeof predicate !== "function")
    throw new TypeError(`guard: expected a predicate function, got ${describe(predicate)}`);
  return Object.freeze({
    kind: "guard",
    predicate: predicate as GuardPredicate<never>,
    next: toNode(next, "guard"),
  }) as GuardNode & NeedsVars<V> & Serves<ServedBy<S, R>>;
}

/**
 * A middleware around the routes of `next`: it runs whenever the walk reaches it (every test before it
 * passed), whether or not a route inside will match. `next()` tries the routes inside in order and
 * resolves to the first reply, or to `null`; an error inside rejects it. What the middleware returns is
 * the node's outcome: a reply (or any handler result) answers; `null` or `routeMismatch()` is a
 * mismatch and the walk goes on after the node. So `return next()` is transparent, and a middleware
 * that never calls `next()` answers (or refuses) for everything inside. Middlewares nest, outermost
 * first; at the root, one sees every request (a 404 is `null` from `next()`).
 */
export function use<V extends Vars = {}, S = never, R extends HandlerResult | Promise<HandlerResult> = NotAHandler>(
  middleware: Middleware<V>,
  next: NextServing<V, S, R>,
): UseNode & NeedsVars<V> & Serves<ServedBy<S, R>> {
  if (typeof middleware !== "function")
    throw new TypeError(`use: expected a middleware function (request, next) => result, got ${describe(middleware)}`);
  return Object.freeze({
    kind: "use",
    middleware: middleware as Middleware<never>,
    next: toNode(next, "use"),
  }) as UseNode & NeedsVars<V> & Serves<ServedBy<S, R>>;
}

/**
 * True when some node of the kind `kind` in the tree passes `test` (called with `argument`; any such
 * node, without a test).
 * A run of single-`next` nodes (most of a route) is followed without bookkeeping: only `alt`s, and
 * every {@link LONGEST_RUN}th node of a run, are remembered, so a subtree shared by several routes
 * is walked once from there, and a hand-made cyclic tree cannot loop forever. A node inside a run
 * that several runs share may be tested more than once, so `test` must be pure.
 */
export function someNode<K extends RouteNode["kind"], A = undefined>(
  root: RouteNode,
  kind: K,
  test?: (node: NodeOfKind<K>, argument: A) => boolean,
  argument?: A,
): boolean {
  let seen: Set<RouteNode> | null = null;
  // where runs start, past the first: made at the first `alt` (a search down one route meets none)
  let starts: RouteNode[] | null = null;
  runs: for (let start: RouteNode | undefined = root; start !== undefined; start = starts?.pop()) {
    let node = start;
    for (let steps = 0; ; steps++) {
      if (node.kind === "alt" || (steps > 0 && steps % LONGEST_RUN === 0)) {
        seen ??= new Set();
        if (seen.has(node)) continue runs;
        seen.add(node);
      }
      if (node.kind === kind && (test === undefined || test(node as NodeOfKind<K>, argument as A))) return true;
      if (node.kind === "handler") continue runs;
      if (node.kind === "alt") {
        starts ??= [];
        for (let i = node.alternatives.length - 1; i >= 0; i--) starts.push(node.alternatives[i]!);
        continue runs;
      }
      node = node.next;
    }
  }
  return false;
}

/** The node type of one kind. */
type NodeOfKind<K extends RouteNode["kind"]> = Extract<RouteNode, { kind: K }>;

/** Nodes followed one by one before {@link someNode} remembers where it is. */
const LONGEST_RUN = 64;

/**
 * True when a `pathVar` in this tree captures `label`. Below a `pathVar` is most often one route, a
 * run of single-`next` nodes to its handler: followed here without bookkeeping (this runs once per
 * `pathVar` built). An `alt` on the way is answered by {@link labelsIn}, whose answer for it is kept.
 */
export function captures(root: RouteNode, label: string): boolean {
  let node = root;
  for (let steps = 0; steps < LONGEST_RUN; steps++) {
    if (node.kind === "handler") return false;
    if (node.kind === "alt") break;
    if (node.kind === "pathVar" && node.label === label) return true;
    node = node.next;
  }
  // an `alt`, or a run longer than a route (or a hand-made cycle): the walk that remembers nodes
  return labelsIn(node).includes(label);
}

/**
 * The labels an `alt` captures (see {@link labelsIn}), kept once asked: `match` asks for those of the
 * routes inside it, and a `pathVar` or `match` above then reads them here instead of walking the
 * routes again, so nested prefixes cost the size of the tree, not its size times their depth. Only
 * trees of frozen nodes are kept (every builder freezes its node; a hand-made node could change later),
 * so a kept answer is always the walk's.
 */
const ALT_LABELS = new WeakMap<AltNode, readonly string[]>();

const NO_LABELS: readonly string[] = Object.freeze([]);

/**
 * Every label captured by a `pathVar` in this tree, each once. The walk takes the kept answer of an
 * `alt` (see {@link ALT_LABELS}) instead of walking into it, and follows runs and remembers nodes as
 * {@link someNode} does. Frozen when every node read was frozen, a fresh array otherwise. (Its own loop,
 * not `someNode`'s through a callback: measured, that made the first build of routes under nested
 * `match`es 1.7× the instructions.)
 */
export function labelsIn(root: RouteNode): readonly string[] {
  // the labels of the one kept answer read (most walks that meet one end there), else copied into `own`
  let kept: readonly string[] | null = null;
  let own: string[] | null = null;
  let frozen = true;
  let seen: Set<RouteNode> | null = null;
  let starts: RouteNode[] | null = null;
  runs: for (let start: RouteNode | undefined = root; start !== undefined; start = starts?.pop()) {
    let node = start;
    for (let steps = 0; ; steps++) {
      if (node.kind === "alt" || (steps > 0 && steps % LONGEST_RUN === 0)) {
        seen ??= new Set();
        if (seen.has(node)) continue runs;
        seen.add(node);
      }
      if (frozen && !Object.isFrozen(node)) frozen = false;
      if (node.kind === "handler") continue runs;
      if (node.kind === "alt") {
        const known = ALT_LABELS.get(node);
        if (known === undefined) {
          starts ??= [];
          for (let i = node.alternatives.length - 1; i >= 0; i--) starts.push(node.alternatives[i]!);
        } else if (kept === null && own === null) kept = known;
        else {
          own ??= [...(kept ?? NO_LABELS)];
          for (const label of known) if (!own.includes(label)) own.push(label);
        }
        continue runs;
      }
      if (node.kind === "pathVar") {
        own ??= [...(kept ?? NO_LABELS)];
        if (!own.includes(node.label)) own.push(node.label);
      }
      node = node.next;
    }
  }
  if (!frozen) return own ?? [...(kept ?? NO_LABELS)];
  const labels = own === null ? (kept ?? NO_LABELS) : Object.freeze(own);
  if (root.kind === "alt") ALT_LABELS.set(root, labels);
  return labels;
}
