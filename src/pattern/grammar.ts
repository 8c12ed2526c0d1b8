import { isMethodToken } from "../methods.js";
import { lookupPathType, registeredPathTypeNames } from "../parsers/registry.js";
import type { PathParser } from "../parsers/parser.js";
import { PatternError } from "./errors.js";

/*
 * Pattern grammar:  [METHOD] PATH
 *   METHOD  an upper-case token, optionally qualified (`HTTP.GET` ≡ `GET`)
 *   PATH    `/`-separated parts (leading `/` optional, empty parts dropped); a part is a literal
 *           segment or `label:Type`, Type a name in the path-type registry.
 */

/** A literal segment of a pattern. */
export interface LiteralPart {
  readonly kind: "literal";
  readonly segment: string;
  /** Index of the part in the pattern string. */
  readonly position: number;
}

/** A `label:Type` part of a pattern. */
export interface VariablePart {
  readonly kind: "variable";
  readonly label: string;
  readonly typeName: string;
  readonly parser: PathParser<unknown>;
  readonly position: number;
}

/** A pattern, checked and split into its parts. */
export interface ParsedPattern {
  readonly pattern: string;
  readonly method: string | undefined;
  readonly parts: readonly (LiteralPart | VariablePart)[];
}

/** Parses and checks a pattern; throws a {@link PatternError} describing the first problem. */
export function parsePattern(pattern: string): ParsedPattern {
  if (typeof pattern !== "string") {
    throw new TypeError(`a route pattern must be a string, got ${pattern === null ? "null" : typeof pattern}`);
  }
  const tokens = [...pattern.matchAll(/\S+/g)].map((m) => ({ text: m[0], position: m.index }));
  const fail = (
    code: ConstructorParameters<typeof PatternError>[0],
    position: number,
    length: number,
    problem: string,
    expected: string,
  ) => new PatternError(code, pattern, position, length, problem, expected);

  if (tokens.length === 0) {
    throw fail("EMPTY_PATTERN", 0, 1, "the pattern is empty", 'a path such as "/users" or "GET /users"');
  }
  if (tokens.length > 2) {
    const extra = tokens[2]!;
    throw fail(
      "TOO_MANY_TOKENS",
      extra.position,
      extra.text.length,
      `unexpected ${JSON.stringify(extra.text)}`,
      'at most a method and a path, separated by a space ("GET /users/id:Int"); a path contains no spaces',
    );
  }
  const [first, second] = tokens as [(typeof tokens)[0], (typeof tokens)[0] | undefined];
  if (second === undefined && looksLikeMethod(first.text)) {
    throw fail(
      "LONE_METHOD",
      first.position,
      first.text.length,
      `${JSON.stringify(first.text)} reads as a method with no path`,
      `a path after the method: did you mean \`${unqualified(first.text)} /\`? (or \`/${first.text}\` for a path)`,
    );
  }
  const method = second === undefined ? undefined : checkMethod(first.text, first.position, fail);
  const pathToken = second ?? first;
  const parts = parsePath(pathToken.text, pathToken.position, fail);
  return { pattern, method, parts };
}

type Fail = (
  code: ConstructorParameters<typeof PatternError>[0],
  position: number,
  length: number,
  problem: string,
  expected: string,
) => PatternError;

/** `GET` or `HTTP.GET`: upper-case letters, optionally after a qualifier, and no `/` or `:`. */
function looksLikeMethod(token: string): boolean {
  return /^([A-Za-z_][A-Za-z0-9_]*\.)*[A-Z][A-Z0-9_-]*$/.test(token);
}

function unqualified(token: string): string {
  return token.slice(token.lastIndexOf(".") + 1);
}

const QUALIFIER = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function checkMethod(token: string, position: number, fail: Fail): string {
  const dot = token.lastIndexOf(".");
  const name = token.slice(dot + 1);
  const at = position + dot + 1;
  if (name !== "" && isMethodToken(name.toUpperCase()) && name !== name.toUpperCase()) {
    throw fail(
      "METHOD_CASE",
      at,
      name.length,
      `the method ${JSON.stringify(name)} is not upper-case`,
      `an upper-case method, as requests send it: did you mean \`${name.toUpperCase()}\`?`,
    );
  }
  const qualifier = token.slice(0, Math.max(0, dot));
  if (!isMethodToken(name) || (dot !== -1 && !QUALIFIER.test(qualifier))) {
    throw fail(
      "INVALID_METHOD",
      at,
      Math.max(1, name.length),
      `${JSON.stringify(token)} is not a method`,
      'an upper-case method token such as GET, POST or PROPFIND (optionally qualified, "HTTP.GET") before the path',
    );
  }
  return name;
}

function parsePath(token: string, start: number, fail: Fail): (LiteralPart | VariablePart)[] {
  const parts: (LiteralPart | VariablePart)[] = [];
  const seen = new Set<string>();
  let offset = 0;
  for (const piece of token.split("/")) {
    const position = start + offset;
    offset += piece.length + 1;
    if (piece === "") continue;
    const colon = piece.indexOf(":");
    if (colon === -1) {
      parts.push({ kind: "literal", segment: piece, position });
      continue;
    }
    const variable = parseVariable(piece, colon, position, fail);
    if (seen.has(variable.label)) {
      throw fail(
        "DUPLICATE_LABEL",
        position,
        variable.label.length,
        `the label "${variable.label}" is used twice`,
        "each label at most once per route",
      );
    }
    seen.add(variable.label);
    parts.push(variable);
  }
  return parts;
}

function parseVariable(piece: string, colon: number, position: number, fail: Fail): VariablePart {
  const label = piece.slice(0, colon);
  const typeName = piece.slice(colon + 1);
  const second = typeName.indexOf(":");
  if (second !== -1) {
    throw fail(
      "TOO_MANY_COLONS",
      position + colon + 1 + second,
      1,
      `${JSON.stringify(piece)} has more than one ":"`,
      'one "label:Type" per path part',
    );
  }
  if (label === "") {
    throw fail(
      "EMPTY_LABEL",
      position,
      1,
      `the variable ${JSON.stringify(piece)} has no label`,
      'a label before ":" ("id:Int")',
    );
  }
  if (typeName === "") {
    throw fail(
      "EMPTY_TYPE",
      position + colon,
      1,
      `the variable "${label}" has no type`,
      `a type name after ":" (one of ${registeredPathTypeNames().join(", ")})`,
    );
  }
  const parser = lookupPathType(typeName);
  if (parser === undefined) {
    throw fail(
      "UNKNOWN_TYPE",
      position + colon + 1,
      typeName.length,
      `unknown path type "${typeName}"`,
      `a registered type: ${registeredPathTypeNames().join(", ")} (register your own with registerPathType)`,
    );
  }
  return { kind: "variable", label, typeName, parser, position };
}
