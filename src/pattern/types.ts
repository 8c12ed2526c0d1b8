import type { PathTypes } from "../parsers/registry.js";
import type { Vars } from "../tree.js";

/*
 * Patterns read at compile time.
 *   PatternVars<"GET /u/id:Int/on:Day">  =  { readonly id: number; readonly on: Day }
 *   CheckedPattern<"GET /u/id:Intt", {}>  =  "invalid route pattern: unknown path type 'Intt' (known: Int, …)"
 * Type names map to value types through `PathTypes`, which users extend by declaration merging. A
 * pattern that is a plain `string` (not a literal) gives `Record<string, unknown>` and is only checked
 * at startup. The checks mirror `grammar.ts` rule for rule, in the same order, so the first problem the
 * compiler reports is the one `parsePattern` would throw.
 */

declare const captures: unique symbol;

/**
 * What a route built from a pattern captures, for the type checker only: `route("GET /u/id:Int", h)`
 * is a `Route & RouteCaptures<{ readonly id: number }>`, which `urlFor` reads to type its variables.
 */
export interface RouteCaptures<V> {
  readonly [captures]?: (vars: V) => void;
}

/**
 * The method of a literal pattern as a request sends it (`"HTTP.GET /x"` → `"GET"`), or `"*"` when it
 * names none.
 */
export type PatternMethod<P extends string> =
  // from the tokens the pattern check splits anyway (cached), rather than a second split on whitespace
  Tokens<P> extends [infer M extends string, string, ...string[]] ? AfterLastDot<M> : "*";

/**
 * The path of a literal pattern as a template (`"GET users/id:Int/"` → `"/users/id:Int"`): one leading
 * `/`, no trailing one. Empty parts inside (`/a//b`) are left as written.
 */
export type PatternPath<P extends string> = Plain<PathOf<Trim<P>>>;

/**
 * The usual path (a leading `/`, no trailing one) as it is, told apart in two plain checks before
 * {@link Slashed} normalises the rest: ~2,000 instantiations fewer for a client of 500 routes.
 */
type Plain<S extends string> = S extends `/${string}` ? (S extends `${string}/` ? Slashed<S> : S) : Slashed<S>;

type Slashed<S extends string> = S extends "/" | ""
  ? "/"
  : S extends `${infer Body}/`
    ? Slashed<Body>
    : S extends `/${string}`
      ? S
      : `/${S}`;

/** The path-variable types of a pattern. */
export type PatternVars<P extends string> = string extends P
  ? Record<string, unknown>
  : Simplify<PartsVars<PathOf<Trim<P>>>>;

/**
 * The parameter type of a pattern argument: the pattern itself when it is well-formed (or not a
 * literal), otherwise a message saying what is wrong, so the compiler's error reads
 * `Argument of type '"get /x"' is not assignable to parameter of type '"invalid route pattern: …"'`.
 * `Outer` is the variables of enclosing `match` prefixes, whose labels may not be captured again.
 */
export type CheckedPattern<P extends string, Outer extends Vars = {}> = string extends P
  ? P
  : P extends `${string}${OtherSpace}${string}`
    ? P
    : [PatternProblem<P, Outer>] extends [never]
      ? P
      : `invalid route pattern: ${PatternProblem<P, Outer>}`;

/** What is wrong with a literal pattern, or `never`. */
export type PatternProblem<P extends string, Outer extends Vars = {}> = TokensProblem<Tokens<P>, OuterLabels<Outer>>;

/** The ASCII characters `\s` matches: what separates the method from the path. */
type Whitespace = " " | "\t" | "\n" | "\r" | "\f" | "\v";

/**
 * The other characters `\s` matches (and so `parsePattern` splits on). A literal pattern holding one
 * is left to the startup check: splitting on 25 kinds of space inside template literals made 500
 * routes take half as long again to check, for patterns nobody writes.
 */
type OtherSpace =
  | "\u00a0"
  | "\u1680"
  | "\u2000"
  | "\u2001"
  | "\u2002"
  | "\u2003"
  | "\u2004"
  | "\u2005"
  | "\u2006"
  | "\u2007"
  | "\u2008"
  | "\u2009"
  | "\u200a"
  | "\u2028"
  | "\u2029"
  | "\u202f"
  | "\u205f"
  | "\u3000"
  | "\ufeff";

type Trim<S extends string> = S extends `${Whitespace}${infer R}`
  ? Trim<R>
  : S extends `${infer R}${Whitespace}`
    ? Trim<R>
    : S;

/** The path token: what follows the method, or the whole pattern when it has no method. */
type PathOf<S extends string> = S extends `${string}${Whitespace}${infer Rest}` ? PathOf<Trim<Rest>> : S;

type PartsVars<S extends string> = S extends `${infer Head}/${infer Tail}`
  ? PartVars<Head> & PartsVars<Tail>
  : PartVars<S>;

type PartVars<Part extends string> = Part extends `${infer Label}:${infer TypeName}`
  ? { readonly [K in Label]: TypeName extends keyof PathTypes ? PathTypes[TypeName] : unknown }
  : {};

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/* ---- checks ---- */

/** The whitespace-separated tokens of a pattern. */
type Tokens<S extends string, Acc extends string[] = []> =
  Trim<S> extends ""
    ? Acc
    : Trim<S> extends `${infer T}${Whitespace}${infer Rest}`
      ? Tokens<Rest, [...Acc, T]>
      : [...Acc, Trim<S>];

type TokensProblem<T extends string[], Outer extends string> = T extends []
  ? "the pattern is empty (expected a path such as '/users' or 'GET /users')"
  : T extends [string, string, infer Extra extends string, ...string[]]
    ? `unexpected '${Extra}' (at most a method and a path, separated by a space; a path contains no spaces)`
    : T extends [infer Only extends string]
      ? LooksLikeMethod<Only> extends true
        ? `'${Only}' reads as a method with no path (did you mean '${AfterLastDot<Only>} /'?)`
        : PathProblem<Only, Outer>
      : T extends [infer M extends string, infer Path extends string]
        ? [MethodProblem<M>] extends [never]
          ? PathProblem<Path, Outer>
          : MethodProblem<M>
        : never;

type Upper =
  | "A"
  | "B"
  | "C"
  | "D"
  | "E"
  | "F"
  | "G"
  | "H"
  | "I"
  | "J"
  | "K"
  | "L"
  | "M"
  | "N"
  | "O"
  | "P"
  | "Q"
  | "R"
  | "S"
  | "T"
  | "U"
  | "V"
  | "W"
  | "X"
  | "Y"
  | "Z";
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type IdentifierStart = Upper | Lowercase<Upper> | "_";
/** RFC 9110 `tchar` without lower-case letters (as `isMethodToken`). */
type MethodChar =
  | Upper
  | Digit
  | "!"
  | "#"
  | "$"
  | "%"
  | "&"
  | "'"
  | "*"
  | "+"
  | "-"
  | "."
  | "^"
  | "_"
  | "`"
  | "|"
  | "~";

/** True when every character of `S` is in `C` (and `S` is not empty). */
type AllIn<S extends string, C extends string> = S extends `${infer H}${infer R}`
  ? H extends C
    ? R extends ""
      ? true
      : AllIn<R, C>
    : false
  : false;

type IsIdentifier<S extends string> = S extends `${IdentifierStart}${infer R}`
  ? R extends ""
    ? true
    : AllIn<R, IdentifierStart | Digit>
  : false;

/** `A.B.C` with every part an identifier. */
type IsQualifier<S extends string> = S extends `${infer Head}.${infer Rest}`
  ? IsIdentifier<Head> extends true
    ? IsQualifier<Rest>
    : false
  : IsIdentifier<S>;

type AfterLastDot<S extends string> = S extends `${string}.${infer Rest}` ? AfterLastDot<Rest> : S;
type BeforeLastDot<S extends string, Acc extends string = ""> = S extends `${infer Head}.${infer Rest}`
  ? BeforeLastDot<Rest, Acc extends "" ? Head : `${Acc}.${Head}`>
  : Acc;

/** `GET` or `HTTP.GET`: what `looksLikeMethod` accepts. */
type LooksLikeMethod<S extends string> =
  AfterLastDot<S> extends `${Upper}${infer R}`
    ? (R extends "" ? true : AllIn<R, Upper | Digit | "_" | "-">) extends true
      ? S extends `${string}.${string}`
        ? IsQualifier<BeforeLastDot<S>>
        : true
      : false
    : false;

type MethodProblem<M extends string> =
  AfterLastDot<M> extends infer Name extends string
    ? Name extends ""
      ? `'${M}' is not a method (expected an upper-case token such as GET, POST or PROPFIND before the path)`
      : AllIn<Uppercase<Name>, MethodChar> extends true
        ? Name extends Uppercase<Name>
          ? M extends `${string}.${string}`
            ? IsQualifier<BeforeLastDot<M>> extends true
              ? never
              : `'${M}' is not a method (expected an upper-case token such as GET, POST or PROPFIND before the path)`
            : never
          : `the method '${Name}' is not upper-case (did you mean '${Uppercase<Name>}'?)`
        : `'${M}' is not a method (expected an upper-case token such as GET, POST or PROPFIND before the path)`
    : never;

/** The first problem of the path's parts, left to right; `Seen` holds the labels so far. */
type PathProblem<S extends string, Seen extends string> = S extends `${infer Part}/${infer Rest}`
  ? PartProblem<Part, Seen> extends infer Problem
    ? [Problem] extends [never]
      ? PathProblem<Rest, Seen | LabelOf<Part>>
      : Problem
    : never
  : PartProblem<S, Seen>;

type LabelOf<Part extends string> = Part extends `${infer Label}:${string}` ? Label : never;

type PartProblem<Part extends string, Seen extends string> = Part extends `${infer Label}:${infer TypeName}`
  ? TypeName extends `${string}:${string}`
    ? `'${Part}' has more than one ':' (one 'label:Type' per path part)`
    : Label extends ""
      ? `the variable '${Part}' has no label (expected 'id:Int')`
      : TypeName extends ""
        ? `the variable '${Label}' has no type (known: ${KnownTypes})`
        : TypeName extends keyof PathTypes
          ? Label extends Seen
            ? `the label '${Label}' is used twice (each label at most once per route, counting enclosing match prefixes)`
            : never
          : `unknown path type '${TypeName}' (known: ${KnownTypes})`
  : never;

/** The labels of enclosing prefixes, when the type knows them (not for a `Record<string, unknown>`). */
type OuterLabels<Outer extends Vars> = string extends keyof Outer ? never : keyof Outer & string;

/** The registered type names, comma-separated. */
type KnownTypes = Join<UnionToTuple<keyof PathTypes & string>>;

type Join<T extends readonly string[]> = T extends [infer H extends string, ...infer R extends string[]]
  ? R extends []
    ? H
    : `${H}, ${Join<R>}`
  : "";

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type LastOf<U> = UnionToIntersection<U extends unknown ? () => U : never> extends () => infer L ? L : never;
type UnionToTuple<U, Last = LastOf<U>> = [U] extends [never] ? [] : [...UnionToTuple<Exclude<U, Last>>, Last];
