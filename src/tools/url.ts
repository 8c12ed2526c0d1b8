import { NoParse, parseSegment } from "../parsers/parser.js";
import type { RouteCaptures } from "../pattern/types.js";
import type { RoutedRequest } from "../request.js";
import type { RouteNode } from "../tree.js";
import { routeChainsOf, type RouteChain, type SegmentTest } from "../chains.js";

/*
 * Typed URL building: the path that reaches a route, with each variable written by its parser's
 * `toUrlPiece` and percent-encoded, so the router reads back exactly the values given.
 */

/**
 * What `urlFor` can link to: a node of the tree (usually what `route(…)` returned), a handler
 * function, or what a handler's `info.target` names (a controller method, `Users.prototype.byId`).
 */
export type UrlTarget = RouteNode | ((...args: never[]) => unknown);

/**
 * The variables `urlFor` needs for `target`: the pattern's for a `route(…)` node, the handler's for a
 * typed handler; enclosing `match` prefixes add theirs (checked when the URL is built).
 */
export type UrlVars<T> = T extends (request: RoutedRequest<infer V>) => unknown
  ? [V] extends [never]
    ? Readonly<Record<string, unknown>>
    : V & Readonly<Record<string, unknown>>
  : T extends RouteCaptures<infer C>
    ? unknown extends C
      ? Readonly<Record<string, unknown>>
      : C & Readonly<Record<string, unknown>>
    : Readonly<Record<string, unknown>>;

/** Options of {@link urlFor}. */
export interface UrlOptions {
  /** Segments after a route that leaves a rest (a `match` prefix with a handler), written as given. */
  readonly rest?: readonly string[];
}

/** Why a URL could not be built: the target is not (or more than once) in the tree, or a value is wrong. */
export class UrlError extends Error {
  override readonly name = "UrlError";
}

/**
 * The path (`/api/users/42`) that routes to `target` with `vars`, built from the route's template
 * (enclosing `match` prefixes included). Each value is written with its parser's `toUrlPiece` and
 * percent-encoded, so the router parses back the same value. Throws a {@link UrlError} when the target
 * is not in the tree, is mounted in more than one place, names several different paths, lacks a value,
 * or has a value its parser cannot read back.
 */
export function urlFor<T extends UrlTarget>(
  tree: RouteNode,
  target: T,
  vars: UrlVars<T>,
  options: UrlOptions = {},
): string {
  return pathOf(chainFor(routeChainsOf(tree), target), vars as Readonly<Record<string, unknown>>, options);
}

/** A request that reaches a route: its method (`null` when the route takes any) and its path. */
export interface RouteRequest {
  readonly method: string | null;
  readonly path: string;
}

/**
 * The method and path (built as {@link urlFor} builds it) of the route `target` stands for: what a
 * client sends to reach it. Throws a {@link UrlError} as `urlFor` does.
 */
export function requestFor<T extends UrlTarget>(
  tree: RouteNode,
  target: T,
  vars: UrlVars<T>,
  options: UrlOptions = {},
): RouteRequest {
  const chain = chainFor(routeChainsOf(tree), target);
  return { method: chain.method, path: pathOf(chain, vars as Readonly<Record<string, unknown>>, options) };
}

/** The path of one chain with `vars` written in. */
function pathOf(chain: RouteChain, vars: Readonly<Record<string, unknown>>, options: UrlOptions): string {
  const pieces = chain.tests.map((test) => encodePiece(pieceOf(test, vars)));
  if (!chain.exact) pieces.push(...(options.rest ?? []).map(encodePiece));
  if (pieces.length === 1 && pieces[0] === "") {
    throw new UrlError('urlFor: a single empty segment cannot be written as a path ("/" is the root, with no segment)');
  }
  return `/${pieces.join("/")}`;
}

/** The one path template `target` stands for. */
function chainFor(chains: readonly RouteChain[], target: UrlTarget): RouteChain {
  const hits = chains.filter((c) => c.nodes.includes(target as RouteNode) || isLeafOf(c, target));
  const name = targetName(target);
  if (hits.length === 0) throw new UrlError(`urlFor: ${name} is not in this tree`);
  const first = hits[0]!;
  // the same path however it is reached (say under GET and POST): one URL, no ambiguity
  if (hits.every((c) => sameTemplate(c, first))) return first;
  const mount = mountOf(first, target);
  if (hits.some((c) => !sameNodes(mountOf(c, target), mount))) {
    throw new UrlError(
      `urlFor: ${name} is mounted in more than one place in this tree (different paths); link to a node below the mount instead`,
    );
  }
  throw new UrlError(`urlFor: ${name} leads to ${hits.length} routes with different paths; give one of its routes`);
}

function isLeafOf(chain: RouteChain, target: UrlTarget): boolean {
  const leaf = chain.nodes[chain.nodes.length - 1]!;
  return leaf.kind === "handler" && (leaf.handler === target || leaf.info?.target === target);
}

/** Where the target sits: the nodes above it (a different list for each place it is mounted). */
function mountOf(chain: RouteChain, target: UrlTarget): readonly RouteNode[] {
  const at = chain.nodes.indexOf(target as RouteNode);
  return at === -1 ? chain.nodes.slice(0, -1) : chain.nodes.slice(0, at);
}

function sameNodes(a: readonly RouteNode[], b: readonly RouteNode[]): boolean {
  return a.length === b.length && a.every((node, i) => node === b[i]);
}

function sameTemplate(a: RouteChain, b: RouteChain): boolean {
  return (
    a.exact === b.exact &&
    a.tests.length === b.tests.length &&
    a.tests.every((t, i) => {
      const u = b.tests[i]!;
      return typeof t === "string" ? t === u : typeof u !== "string" && t.label === u.label && t.parser === u.parser;
    })
  );
}

function targetName(target: UrlTarget): string {
  if (typeof target === "function") return `the handler ${target.name === "" ? "(anonymous)" : target.name}`;
  return `the ${typeof target === "object" && target !== null && "kind" in target ? `${String(target.kind)} node` : "target"}`;
}

/** One segment: a literal as is, a variable through its parser (and checked to read back). */
function pieceOf(test: SegmentTest, vars: Readonly<Record<string, unknown>>): string {
  if (typeof test === "string") return test;
  const { label, parser } = test;
  if (!Object.hasOwn(vars, label)) throw new UrlError(`urlFor: no value for "${label}" (a ${parser.name})`);
  let piece: string;
  try {
    piece = parser.toUrlPiece(vars[label]);
  } catch (error) {
    throw new UrlError(
      `urlFor: ${parser.name}.toUrlPiece failed on the value of "${label}": ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (typeof piece !== "string" || parseSegment(parser, piece) === NoParse) {
    throw new UrlError(
      `urlFor: the value of "${label}" is written ${JSON.stringify(piece)}, which ${parser.name} does not parse back`,
    );
  }
  return piece;
}

/** Percent-encodes one segment so that splitting and decoding give it back (`/` → `%2F`). */
function encodePiece(piece: string): string {
  try {
    return encodeURIComponent(piece);
  } catch {
    throw new UrlError(`urlFor: ${JSON.stringify(piece)} has a lone surrogate and cannot be written in a URL`);
  }
}
