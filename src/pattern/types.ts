import type { PathTypes } from "../parsers/registry.js";

/*
 * Path variables read off a pattern string at compile time:
 *   PatternVars<"GET /u/id:Int/on:Day">  =  { readonly id: number; readonly on: Day }
 * Type names map to value types through `PathTypes`, which users extend by declaration merging.
 * A pattern that is a plain `string` (not a literal) gives `Record<string, unknown>`.
 */

declare const captures: unique symbol;

/**
 * What a route built from a pattern captures, for the type checker only: `route("GET /u/id:Int", h)`
 * is a `Route & RouteCaptures<{ readonly id: number }>`, which `urlFor` reads to type its variables.
 */
export interface RouteCaptures<V> {
  readonly [captures]?: (vars: V) => void;
}

/** The path-variable types of a pattern. */
export type PatternVars<P extends string> = string extends P ? Record<string, unknown> : Simplify<PartsVars<PathOf<Trim<P>>>>;

type Whitespace = " " | "\t" | "\n" | "\r";

type Trim<S extends string> = S extends `${Whitespace}${infer R}` ? Trim<R> : S extends `${infer R}${Whitespace}` ? Trim<R> : S;

/** The path token: what follows the method, or the whole pattern when it has no method. */
type PathOf<S extends string> = S extends `${string}${Whitespace}${infer Rest}` ? PathOf<Trim<Rest>> : S;

type PartsVars<S extends string> = S extends `${infer Head}/${infer Tail}` ? PartVars<Head> & PartsVars<Tail> : PartVars<S>;

type PartVars<Part extends string> = Part extends `${infer Label}:${infer TypeName}`
  ? { readonly [K in Label]: TypeName extends keyof PathTypes ? PathTypes[TypeName] : unknown }
  : {};

type Simplify<T> = { [K in keyof T]: T[K] } & {};
