import { DEFAULT_BODY_LIMIT } from "./body.js";
import { type ContractMode, withContracts } from "./contracts.js";
import { compile } from "./dispatch/compile/index.js";
import type { Dispatch, DispatcherFactory } from "./dispatch/dispatcher.js";
import { type FormReader, formReader } from "./forms/read.js";
import { HttpError, isHttpError, statusText } from "./errors.js";
import { isReply, json, type Reply, reply, text } from "./reply.js";
import { isThenable } from "./thenable.js";
import { discard } from "./reply-stream.js";
import { adapterInput } from "./input.js";
import { type AdapterInput, type BodySettings, RequestContext, type RequestInput } from "./request.js";
import type { Route } from "./tree.js";
import type { MatchedRoute } from "./matched-route.js";

/** The request an error is reported with: enough to log it. */
export interface ErrorRequest {
  readonly method: string;
  readonly url: string;
  /** The route whose handler (or the middleware around it) failed, when one had been chosen. */
  readonly route?: MatchedRoute | undefined;
}

/** Options every adapter shares: {@link pipeline}'s, and so `toApplication`'s, the Fetch handler's, … */
export interface PipelineOptions {
  /**
   * Told of every error a handler, guard or body read throws (an {@link HttpError} too). It may answer
   * instead by returning (or resolving to) a {@link Reply}; whatever else it returns is ignored, and an `HttpError` answers with its own status
   * and anything else with a generic 500. It may be async; an error it throws or rejects with is
   * ignored. Defaults to logging errors of status 500 and up with `console.error`.
   */
  readonly onError?: (error: unknown, request: ErrorRequest) => unknown;
  /** The most bytes `bytes()`/`text()`/`json()` read; more is a 413. Default 1 MiB. */
  readonly bodyLimit?: number;
  /**
   * Milliseconds a request may take to answer (routing, guards, handler) before it is answered with a
   * 503; off unless given. A streamed body that has started is not cut by it.
   */
  readonly requestTimeout?: number;
  /**
   * How the tree is turned into a dispatcher: {@link defaultDispatcher} (the compiled one) unless
   * given, except in the edge adapter (`switchyard-router/edge`), whose default is `interpreter` (the
   * reference semantics, at a cost per route).
   */
  readonly dispatcher?: DispatcherFactory;
  /**
   * An answer for a request no route took, wrapped around the pipeline: `methodFallbacks({
   * methodNotAllowed: true, head: true })` gives the 405 with `Allow` and HEAD answered by the GET
   * route. None by default: the spec's answer is a 404. A value rather than a flag, so an app that
   * does not use it does not carry its code (an edge bundle).
   */
  readonly fallback?: Fallback;
  /**
   * Response contracts for every route whose `responses` declare a Standard Schema or DTO class for a
   * status (a route's own `contract` wins): `"check"` makes a JSON reply that breaks its schema a 500
   * told to `onError` (a `ContractError` naming the route, status and failing fields), never sent;
   * `"strip"` sends the schema's output (only the declared fields). `"off"` (the default) checks nothing.
   */
  readonly contracts?: ContractMode | "off";
  /**
   * What reads `req.form()` and `req.parts()`: {@link formReader}, which every adapter gives unless
   * told, except the edge adapter (`switchyard-router/edge`), so an edge bundle that reads no form does
   * not carry the form code; there, without it, `req.form()` is a `TypeError` naming this option.
   */
  readonly forms?: FormReader;
}

/** Options with every tool the pipeline runs with given as a value (see {@link pipelineWith}). */
export interface BuiltOptions extends PipelineOptions {
  readonly dispatcher: DispatcherFactory;
}

/**
 * The dispatcher every adapter but the edge one builds unless told (the `dispatcher` option): the
 * compiled one. The one place that names it; the edge adapter takes it as `dispatcher: defaultDispatcher`.
 */
export const defaultDispatcher: DispatcherFactory = (tree) => compile(tree).dispatch;

/**
 * `options` with the full adapters' defaults for what they do not give: {@link defaultDispatcher} and
 * {@link formReader}, the options that moved refused. Only the full adapters call it, so the edge
 * adapter's bundle reaches none of it.
 */
export function withDefaults<O extends PipelineOptions>(options: O): O & BuiltOptions {
  refuseRemovedOptions(options);
  return { ...options, dispatcher: options.dispatcher ?? defaultDispatcher, forms: options.forms ?? formReader };
}

/** A request in, the reply of the route that answers out, or `null` when no route matches. */
export type Pipeline = (request: RequestInput) => Reply | null | Promise<Reply | null>;

/** A {@link Pipeline} as adapters call it: the request's headers a reader, its body a source. */
export type AdapterPipeline = (request: AdapterInput) => Reply | null | Promise<Reply | null>;

/**
 * Wraps a pipeline with answers for what no route took, given the tree it serves (see
 * {@link PipelineOptions.fallback}); `methodFallbacks` makes one.
 */
export type Fallback = (tree: Route, route: AdapterPipeline) => AdapterPipeline;

/** What an adapter does with an error: answer with a reply (or throw, to hand it to its framework). */
export type Failure = (error: unknown, request: RequestContext) => Reply | Promise<Reply>;

/** The reply for a server error nobody answered: a generic 500. */
export const INTERNAL_ERROR: Reply = text("Internal Server Error", { status: 500 });

/** What an adapter that owns the whole server answers when no route matches: 404, empty body. */
export const NO_MATCH: Reply = /* @__PURE__ */ reply({ status: 404 });

/**
 * The request pipeline every adapter runs: request in, `Reply | null` out (`null`: no route matched;
 * the adapter decides what that means, a 404 or the framework's `next()`). It never rejects: errors
 * become replies as {@link PipelineOptions.onError} describes.
 */
export function pipeline(tree: Route, options: PipelineOptions = {}): Pipeline {
  const route = pipelineWith(tree, withDefaults(options), answerError(options));
  return (input) => route(adapterInput(input));
}

/**
 * {@link pipeline} with every tool given as a value (no default of its own: an adapter that calls it
 * carries only the dispatcher and form reader it passes) and an adapter's own way of failing: `fail`
 * turns an error into the reply, or throws it on (Express's `next(err)`, Koa's error path), and then
 * the pipeline rejects with it.
 */
export function pipelineWith(tree: Route, options: BuiltOptions, fail: Failure): AdapterPipeline {
  const routes = withContracts(tree, options.contracts);
  const dispatch: Dispatch = options.dispatcher(routes);
  const settings: BodySettings = { bodyLimit: checkedLimit(options.bodyLimit), forms: options.forms };
  const timeout = checkedTimeout(options.requestTimeout);
  const route: AdapterPipeline = (input) => {
    const request = new RequestContext(input, settings);
    try {
      const outcome = dispatch(request);
      if (!(outcome instanceof Promise)) return outcome;
      const settled = outcome.catch((error: unknown) => fail(error, request));
      return timeout === undefined ? settled : withTimeout(settled, timeout, request, fail);
    } catch (error) {
      return fail(error, request);
    }
  };
  return options.fallback === undefined ? route : options.fallback(tree, route);
}

/**
 * The options that moved out of the pipeline so that an app carries only the tools it uses: refused
 * with where they went, rather than silently ignored, by every adapter that once took them (the edge
 * adapter came after, and TypeScript refuses them there).
 */
function refuseRemovedOptions(options: PipelineOptions): void {
  const removed = options as { methodNotAllowed?: unknown; head?: unknown; unreachable?: unknown };
  if (removed.methodNotAllowed !== undefined || removed.head !== undefined)
    throw new TypeError("methodNotAllowed and head are now fallback: methodFallbacks({ methodNotAllowed, head })");
  if (removed.unreachable !== undefined)
    throw new TypeError('unreachable is now a call before the app is made: checkUnreachable(tree, "warn" | "throw")');
}

/** Options of the adapters inside a framework (`toExpress`, `toKoa`). */
export interface FrameworkOptions extends PipelineOptions {
  /**
   * Who answers a client error — an {@link HttpError} below 500 (a bad query parameter, header or
   * cookie, an invalid body, a 413, a guard's 401) — when `onError` is not given: `"answer"` (the
   * default) answers it here with its status, headers and JSON body, as every other adapter does, and
   * tells nobody (it is the client's mistake, not the server's); `"framework"` throws it on to the
   * framework's error handling like any other error. Server errors always go to the framework, and
   * with `onError` given, `onError` decides for every error.
   */
  readonly clientErrors?: "answer" | "framework";
}

/**
 * The pipeline of an adapter inside a framework (Express, Koa): without `onError`, client errors (an
 * `HttpError` below 500) are answered with their JSON (unless `clientErrors: "framework"`) and every
 * other error is thrown on to the framework's own error handling (the pipeline rejects with it); with
 * `onError`, `onError` decides.
 */
export function frameworkPipeline(tree: Route, given: FrameworkOptions): AdapterPipeline {
  const options = withDefaults(given);
  if (options.onError !== undefined) return pipelineWith(tree, options, answerError(options));
  const clientErrors = options.clientErrors ?? "answer";
  if (clientErrors !== "answer" && clientErrors !== "framework")
    throw new TypeError(`clientErrors must be "answer" or "framework", got ${JSON.stringify(clientErrors)}`);
  return pipelineWith(tree, options, clientErrors === "answer" ? answerClientErrors : throwOn);
}

function throwOn(error: unknown): never {
  throw error;
}

/** A client error's own reply; any other error thrown on. */
function answerClientErrors(error: unknown): Reply {
  if (isHttpError(error) && error.status < 500) return errorReply(error);
  throw error;
}

/** The standard failure: `onError` may answer; else an `HttpError`'s own reply or a generic 500. */
export function answerError(options: PipelineOptions): Failure {
  const onError = options.onError ?? logServerErrors;
  return (error, request) => {
    let answer: unknown;
    try {
      answer = onError(error, request);
    } catch {
      // an error reporter that throws must not take the server down
      return errorReply(error);
    }
    if (isThenable(answer)) {
      return Promise.resolve(answer).then(
        (custom) => (isReply(custom) ? custom : errorReply(error)),
        () => errorReply(error),
      );
    }
    return isReply(answer) ? answer : errorReply(error);
  };
}

/** The reply for an error nobody answered: an `HttpError`'s status and JSON body, else a 500. */
export function errorReply(error: unknown): Reply {
  if (!isHttpError(error)) return INTERNAL_ERROR;
  if (!error.expose) return json({ error: statusText(error.status) }, { status: error.status, headers: error.headers });
  // the message first, then the details: built as `{ ...details, error }`, these bodies made V8 (Node 20)
  // promote 190–650 KB of garbage per young collection under a stream of 400s (RSS +25 MiB); see
  // test/error-reply.test.ts
  const body: Record<string, unknown> = { error: error.message, ...error.details };
  // a detail named `error` does not replace the message
  if (body.error !== error.message) body.error = error.message;
  return json(body, { status: error.status, headers: error.headers });
}

/**
 * Tells `onError` (or the log) of an error met after the answer was chosen, while sending it (a stream
 * that fails): its answer is moot then, and an error it throws is ignored.
 */
export function reportSendError(options: PipelineOptions, error: unknown, request: ErrorRequest): void {
  try {
    const answer = (options.onError ?? logServerErrors)(error, request);
    if (isThenable(answer)) Promise.resolve(answer).catch(() => undefined);
  } catch {
    // a reporter that throws must not take the server down
  }
}

/** The default `onError`: server errors are logged, client errors (4xx) are not. */
function logServerErrors(error: unknown, request: ErrorRequest): void {
  if (isHttpError(error) && error.status < 500) return;
  console.error(`switchyard-router: ${request.method} ${request.url} failed:`, error);
}

function withTimeout(
  settled: Promise<Reply | null>,
  ms: number,
  request: RequestContext,
  fail: Failure,
): Promise<Reply | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  const expired = new Promise<Reply>((resolve, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      try {
        resolve(
          fail(
            new HttpError(503, `the request took longer than the request timeout of ${ms} ms`, { expose: true }),
            request,
          ),
        );
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  settled.then(
    (reply) => {
      // the answer came after the 503 went out: release what its body holds
      if (timedOut && reply !== null) discard(reply.body);
    },
    () => undefined,
  );
  return Promise.race([settled, expired]).finally(() => clearTimeout(timer));
}

function checkedLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_BODY_LIMIT;
  if (!(limit >= 0) || !Number.isFinite(limit))
    throw new RangeError(`bodyLimit must be a finite number of bytes ≥ 0, got ${String(limit)}`);
  return limit;
}

function checkedTimeout(ms: number | undefined): number | undefined {
  if (ms === undefined) return undefined;
  if (!(ms > 0) || !Number.isFinite(ms))
    throw new RangeError(`requestTimeout must be a positive number of milliseconds, got ${String(ms)}`);
  return ms;
}
