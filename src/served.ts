/*
 * What a route tree serves, for the type checker only: the builders that know a route's method and
 * path template (`route`, `match`) record it, `alt`, `guard`, `use` and `described` pass it on, and a
 * typed client reads it (`client<typeof app>()`). Nothing here exists at run time.
 *
 * The record is lazy: `match` wraps what it mounts (`Mounted`) instead of rewriting every route below
 * it, so building a tree costs one small type per builder call, and the prefixes are joined once, when a
 * client asks (`ServedRoutes`).
 */

declare const served: unique symbol;

/**
 * One route: its method (`"*"` when it takes any), its path template in pattern form
 * (`/users/id:Int`; a trailing `/*` when it takes any rest of the path), its variables, what its
 * handler returns (`R`, as the handler's type says: a promise, a reply, a `routeMismatch()`…), and the
 * `HandlerInfo` that `described` gave it (`I`: its declared body and replies), `unknown` for none.
 */
export interface ServedRoute<
  M extends string = string,
  P extends string = string,
  V = unknown,
  R = unknown,
  I = unknown,
> {
  readonly method: M;
  readonly path: P;
  readonly vars: V;
  readonly result: R;
  readonly info: I;
}

/**
 * The routes `S` mounted under a `match` or `route` pattern: method `M` (`"*"`: none), path `P`,
 * variables `V`; `Exact` when the pattern is a `route`'s (the path must end there).
 */
export interface Mounted<M extends string, P extends string, V, S, Exact extends boolean> {
  readonly method: M;
  readonly prefix: P;
  readonly vars: V;
  readonly inner: S;
  readonly exact: Exact;
}

/**
 * A tree that serves the routes `S` (a union of {@link ServedRoute} and {@link Mounted}). An
 * interface, so declaration files can name it.
 */
export interface Serves<S> {
  readonly [served]?: ServedRecord<S>;
}

/**
 * The record itself. `S` is read back by inference only, never by a property: so two trees that serve
 * different routes stay assignable to each other (`let tree: typeof a = b`, an array of apps), as they
 * were before trees carried their routes.
 */
export interface ServedRecord<S> {
  // `never` whatever S is; written with S so that the compiler measures no variance and compares records
  // by this (always equal) property
  readonly [served]?: [S] extends [never] ? never : never;
}

declare const notAHandler: unique symbol;

/** A builder's handler result when its `next` was no handler (a type parameter's default; never a real result). */
export interface NotAHandler {
  readonly [notAHandler]: true;
}

/**
 * What a builder's `next` serves, from what was inferred of it: the routes `S` of a tree, or a handler
 * returning `R` (any method, any rest of the path until a `route` ends it).
 */
export type ServedBy<S, R> = [R] extends [NotAHandler] ? S : ServedRoute<"*", "/*", {}, R>;

/** What an `alt`'s alternatives serve: each one's routes, a handler function as the route of {@link ServedBy}. */
export type ServedByEach<N> =
  N extends Serves<infer S> ? S : N extends (...args: never[]) => infer R ? ServedRoute<"*", "/*", {}, R> : never;

/** The routes of a tree type, every prefix joined: a union of {@link ServedRoute}. */
export type ServedRoutes<T> =
  NonNullable<T extends { readonly [served]?: infer R } ? R : never> extends ServedRecord<infer S> ? Flat<S> : never;

/** Joins each `Mounted` record with what it mounts (a route is told apart first, by a plain check). */
type Flat<S> = S extends ServedRoute
  ? S
  : S extends Mounted<infer M, infer P, infer V, infer Inner, infer Exact>
    ? PlainPrefix<M, P, V, Exact> extends true
      ? UnderPath<P, Inner>
      : Prefixed<M, P, V, Inner, Exact>
    : never;

/**
 * True for the usual `match("/api", …)`: a path prefix other than `/`, with no method and no variables,
 * that a route need not end. Its routes only have their paths joined ({@link UnderPath}), decided once
 * per prefix rather than per route.
 */
type PlainPrefix<M extends string, P extends string, V, Exact extends boolean> = [M, Exact, {}] extends ["*", false, V]
  ? P extends "/"
    ? false
    : true
  : false;

/**
 * Each route of `R` under the plain prefix `P` (see {@link PlainPrefix}): its path after `P`, the rest as
 * it is. A `Mounted` in `R` is joined first, in this same pass (not a pass of its own over every route).
 */
type UnderPath<P extends string, R> =
  R extends ServedRoute<infer RM, infer RP, infer RV, infer H, infer I>
    ? ServedRoute<RM, RP extends "/" ? P : `${P}${RP}`, RV, H, I>
    : UnderPath<P, Flat<R>>;

/**
 * Each route of `R` under the prefix: its method narrowed by `M` (gone when none can match), its path after
 * `P`. A `Mounted` in `R` is joined first, in this same pass.
 */
type Prefixed<M extends string, P extends string, V, R, Exact extends boolean> =
  R extends ServedRoute<infer RM, infer RP, infer RV, infer H, infer I>
    ? Within<M, RM> extends infer Method extends string
      ? [Method] extends [never]
        ? never
        : ServedRoute<Method, Join<P, Exact extends true ? Ended<RP> : RP>, V & RV, H, I>
      : never
    : Prefixed<M, P, V, Flat<R>, Exact>;

/** The method of a route with method `Inner` under a prefix with method `Outer`; `never` when none can match. */
type Within<Outer extends string, Inner extends string> = Outer extends "*"
  ? Inner
  : Inner extends "*" | Outer
    ? Outer
    : never;

/** A path that must end here: a rest (`/*`) becomes nothing; a path that ends already is kept. */
type Ended<P extends string> = P extends "/*" ? "" : P extends `${infer Head}/*` ? Head : P;

/** A prefix's path and an inner path, as one template (`/api` + `/users` = `/api/users`; `""` joins nothing). */
type Join<Prefix extends string, Inner extends string> = Inner extends "" | "/"
  ? Prefix extends ""
    ? "/"
    : Prefix
  : Prefix extends "" | "/"
    ? Inner
    : `${Prefix}${Inner}`;
