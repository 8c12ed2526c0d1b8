/*
 * The route that answered a request, as logs, metrics and traces name it: a template of low
 * cardinality (OpenTelemetry's `http.route`), never the concrete path.
 */

/**
 * A segment test as a name needs it: a literal, or a variable's label and its parser's name (the
 * shape of chains.ts's `SegmentTest`, which this file cannot import: the request names its route).
 */
type NamedTest = string | { readonly label: string; readonly parser: { readonly name: string } };

/** The route that answers (or is answering) a request: `req.route`. */
export interface MatchedRoute {
  /** The method the route needs, or `null` when it takes any. */
  readonly method: string | null;
  /** The route in pattern form: `GET /api/users/id:Int`; `/*` ends a route that takes any rest of the path. */
  readonly pattern: string;
  /** The path in OpenAPI form: `/api/users/{id}`; `/*` ends a route that takes any rest of the path. */
  readonly template: string;
}

/** What names a route: its method, its segment tests from the root, and whether the path must end there. */
export interface RouteName {
  readonly method: string | null;
  readonly tests: readonly NamedTest[];
  readonly exact: boolean;
}

/** The name of `inner`, a route of the subtree that `outer` (a route ending at a gate) leads to. */
export function nameBelow(outer: RouteName | null, inner: RouteName): RouteName {
  if (outer === null) return inner;
  return {
    method: inner.method ?? outer.method,
    tests: [...outer.tests, ...inner.tests],
    exact: outer.exact || inner.exact,
  };
}

/** The {@link MatchedRoute} of a route with these tests, made once per route. */
export function matchedRoute(method: string | null, tests: readonly NamedTest[], exact: boolean): MatchedRoute {
  let pattern = "";
  let template = "";
  for (const test of tests) {
    pattern += typeof test === "string" ? `/${test}` : `/${test.label}:${test.parser.name}`;
    template += typeof test === "string" ? `/${test}` : `/{${test.label}}`;
  }
  const rest = exact ? "" : "/*";
  pattern = (pattern === "" && exact ? "/" : pattern) + rest;
  template = (template === "" && exact ? "/" : template) + rest;
  return Object.freeze({ method, pattern: method === null ? pattern : `${method} ${pattern}`, template });
}
