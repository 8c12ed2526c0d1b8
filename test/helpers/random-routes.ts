import fc from "fast-check";
import {
  alt,
  Bool,
  Day,
  Double,
  guard,
  type Handler,
  Int,
  Int64,
  Integer,
  method,
  NoParse,
  parseSegment,
  path,
  pathEnd,
  pathVar,
  type PathParser,
  type RouteNode,
  Text,
  UUID,
  Word,
} from "../../src";

/*
 * Random route trees for the route tools' property tests, with what each handler's route is, worked
 * out here, independently of the walk under test: its method, its segment tests and whether it ends
 * with pathEnd. Every handler is its own function, so `find` tells the routes apart.
 */

/** A user parser with an inclusion fact: even integers, included in Int. */
export const Even: PathParser<number> = {
  name: "Even",
  includedIn: [Int],
  parseUrlPiece(piece) {
    const n = Int.parseUrlPiece(piece);
    return n !== NoParse && n % 2 === 0 ? n : NoParse;
  },
  toUrlPiece: String,
};

export const PARSERS: readonly PathParser<unknown>[] = [Int, Int64, Integer, Word, Double, Bool, Text, UUID, Day, Even];
/** Literals in trees: some are values of the parsers (`42`, `true`), so literal-vs-typed cases occur. */
export const LITERALS = ["a", "me", "42", "7", "true", "x y"];
export const TREE_METHODS = ["GET", "POST", "DELETE"];
/** Request methods: one no tree names, so a route without a method is told from a union of methods. */
export const REQUEST_METHODS = [...TREE_METHODS, "PUT"];
/**
 * Segment values requests are built from: values of every parser, including the forms that tell the
 * parsers apart (a sign, leading zeros, out of each range, exponents, any letter case).
 */
export const VALUES = [
  "0",
  "7",
  "42",
  "-3",
  "+4",
  "007",
  "12",
  "9007199254740993",
  "-9223372036854775809",
  "1e3",
  "2.5",
  "true",
  "FALSE",
  "",
  "x",
  "a",
  "me",
  "123e4567-e89b-12d3-a456-426614174000",
  "2024-02-29",
  "x y",
  "a/b",
  "%",
];
/** What a prefix route may be given after its tests. */
export const RESTS: readonly (readonly string[])[] = [[], ["a"], ["zz"], ["7", "q"]];

/** A segment test of a route, as the generator knows it. */
export type TemplatePart = string | { readonly label: string; readonly parser: PathParser<unknown> };

/** A handler's route, as built. */
export interface Template {
  readonly handler: Handler<never>;
  readonly method: string | null;
  readonly parts: readonly TemplatePart[];
  readonly exact: boolean;
  /** False when the route can never match (two methods, a segment after pathEnd). */
  readonly possible: boolean;
}

type Spec =
  | { readonly kind: "method"; readonly method: string; readonly next: Spec }
  | { readonly kind: "path"; readonly literal: string; readonly next: Spec }
  | { readonly kind: "pathVar"; readonly parser: number; readonly next: Spec }
  | { readonly kind: "pathEnd"; readonly next: Spec }
  | { readonly kind: "alt"; readonly alternatives: readonly Spec[] }
  | { readonly kind: "guard"; readonly next: Spec }
  | { readonly kind: "handler" };

/** Trees of any shape: every node kind anywhere (small, often with a catch-all early). */
const anyShape: fc.Arbitrary<Spec> = fc.letrec<{ node: Spec }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    { arbitrary: fc.constant({ kind: "handler" as const }), weight: 3 },
    {
      arbitrary: fc.record({
        kind: fc.constant("method" as const),
        method: fc.constantFrom(...TREE_METHODS),
        next: tie("node"),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant("path" as const),
        literal: fc.constantFrom(...LITERALS.map((l) => `/${l}`), "/", "/a/me"),
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
      weight: 4,
    },
    { arbitrary: fc.record({ kind: fc.constant("pathEnd" as const), next: tie("node") }), weight: 3 },
    {
      arbitrary: fc.record({
        kind: fc.constant("alt" as const),
        alternatives: fc.array(tie("node"), { minLength: 2, maxLength: 5 }),
      }),
      weight: 4,
    },
    { arbitrary: fc.record({ kind: fc.constant("guard" as const), next: tie("node") }), weight: 1 },
  ),
})).node;

const segment: fc.Arbitrary<(next: Spec) => Spec> = fc.oneof(
  fc.constantFrom(...LITERALS).map(
    (l) =>
      (next: Spec): Spec => ({ kind: "path", literal: `/${l}`, next }),
  ),
  fc.nat(PARSERS.length - 1).map(
    (parser) =>
      (next: Spec): Spec => ({ kind: "pathVar", parser, next }),
  ),
);

function chained(segments: readonly ((next: Spec) => Spec)[], last: Spec): Spec {
  return segments.reduceRight((next, seg) => seg(next), last);
}

const withMethod = (m: string | null, next: Spec): Spec => (m === null ? next : { kind: "method", method: m, next });

/** One route as apps write them: a method (mostly), up to three segments, mostly ending in pathEnd. */
const appRoute: fc.Arbitrary<Spec> = fc
  .record({
    method: fc.option(fc.constantFrom(...TREE_METHODS), { freq: 4 }),
    segments: fc.array(segment, { maxLength: 3 }),
    exact: fc.nat(4),
  })
  .map(({ method: m, segments, exact }) =>
    withMethod(m, chained(segments, exact > 0 ? { kind: "pathEnd", next: { kind: "handler" } } : { kind: "handler" })),
  );

/** A `match` group: a prefix (method optional) over a few routes. */
const appGroup: fc.Arbitrary<Spec> = fc
  .record({
    method: fc.option(fc.constantFrom(...TREE_METHODS), { freq: 2 }),
    segments: fc.array(segment, { minLength: 1, maxLength: 2 }),
    routes: fc.array(appRoute, { minLength: 2, maxLength: 6 }),
  })
  .map(({ method: m, segments, routes }) => withMethod(m, chained(segments, { kind: "alt", alternatives: routes })));

/** Trees shaped like apps: 3 to 16 routes and groups in a row, a few guarded. */
const appShape: fc.Arbitrary<Spec> = fc
  .array(
    fc.oneof(
      { arbitrary: appRoute, weight: 5 },
      { arbitrary: appGroup, weight: 2 },
      { arbitrary: appRoute.map((next): Spec => ({ kind: "guard", next })), weight: 1 },
    ),
    { minLength: 3, maxLength: 16 },
  )
  .map((alternatives): Spec => ({ kind: "alt", alternatives }));

const specs: fc.Arbitrary<Spec> = fc.oneof({ arbitrary: appShape, weight: 3 }, { arbitrary: anyShape, weight: 1 });

/** A random tree and its handlers' routes, in the order the handlers were built. */
export interface RandomTree {
  readonly tree: RouteNode;
  readonly templates: readonly Template[];
}

interface Context {
  readonly method: string | null;
  readonly parts: readonly TemplatePart[];
  readonly exact: boolean;
  readonly possible: boolean;
}

function build(spec: Spec): RandomTree {
  let labels = 0;
  const templates: Template[] = [];
  const visit = (s: Spec, at: Context): RouteNode => {
    switch (s.kind) {
      case "method":
        return method(
          s.method,
          visit(s.next, {
            ...at,
            method: s.method,
            possible: at.possible && (at.method === null || at.method === s.method),
          }),
        );
      case "path": {
        const pieces = s.literal.split("/").filter((p) => p !== "");
        return path(
          s.literal,
          visit(s.next, {
            ...at,
            parts: [...at.parts, ...pieces],
            possible: at.possible && !(at.exact && pieces.length > 0),
          }),
        );
      }
      case "pathVar": {
        const label = `v${labels++}`;
        const parser = PARSERS[s.parser]!;
        return pathVar(
          label,
          parser,
          visit(s.next, { ...at, parts: [...at.parts, { label, parser }], possible: at.possible && !at.exact }),
        );
      }
      case "pathEnd":
        return pathEnd(visit(s.next, { ...at, exact: true }));
      case "alt":
        return alt(...s.alternatives.map((a) => visit(a, at)));
      case "guard":
        return guard(() => true, visit(s.next, at));
      case "handler": {
        const id = templates.length;
        const handler: Handler<never> = () => `handler ${id}`;
        templates.push({ handler, ...at });
        return { kind: "handler", handler };
      }
    }
  };
  const tree = visit(spec, { method: null, parts: [], exact: false, possible: true });
  return { tree, templates };
}

/** Random trees with their routes. */
export const randomTrees: fc.Arbitrary<RandomTree> = specs.map(build);

/** The segment values of {@link VALUES} a parser accepts. */
export function valuesFor(parser: PathParser<unknown>): string[] {
  return VALUES.filter((v) => parseSegment(parser, v) !== NoParse);
}

/** A request aimed at a route: a method and decoded segments. */
export interface AimedRequest {
  readonly method: string;
  readonly segments: readonly string[];
}

/**
 * Requests built from a route's template with the values above: every combination (each method it
 * accepts, each accepted value of each variable, each rest for a prefix) when there are at most
 * `limit`, else `limit` of them drawn evenly at random (seeded, so runs repeat).
 */
export function requestsFor(template: Template, limit = 1000): AimedRequest[] {
  const choices: (readonly string[])[] = template.parts.map((part) =>
    typeof part === "string" ? [part] : valuesFor(part.parser),
  );
  const methods = template.method === null ? REQUEST_METHODS : [template.method];
  const rests = template.exact ? [[]] : RESTS;
  const total = choices.reduce((n, c) => n * c.length, methods.length * rests.length);
  const pick = total <= limit ? (n: number, k: number) => n % k : seededPick(template.parts.length * 7919 + total);
  const requests: AimedRequest[] = [];
  for (let i = 0; i < Math.min(total, limit); i++) {
    // mixed-radix digits of i (every combination once), or random digits past the limit
    let remaining = i;
    const digit = (k: number): number => {
      const d = pick(remaining, k);
      remaining = Math.floor(remaining / k);
      return d;
    };
    const method = methods[digit(methods.length)]!;
    const segments = choices.map((c) => c[digit(c.length)]!);
    segments.push(...rests[digit(rests.length)]!);
    // one empty segment alone cannot be written as a path ("/" has none)
    if (!(segments.length === 1 && segments[0] === "")) requests.push({ method, segments });
  }
  return requests;
}

/** A seeded random choice among `k` (mulberry32). */
function seededPick(seed: number): (n: number, k: number) => number {
  let state = seed >>> 0;
  return (_n, k) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) % 4294967296) % k;
  };
}

/** The request target whose decoded segments are `segments`. */
export function targetOf(segments: readonly string[]): string {
  return `/${segments.map(encodeURIComponent).join("/")}`;
}
