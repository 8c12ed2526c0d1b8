import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type RouteNode, someNode } from "../src/tree.js";

/*
 * Finds the route tree a module exports: the named export asked for, else the default export, else
 * the one export that is a tree, else the one exported tree that contains all the others (an app and
 * the subtrees mounted in it, exported for `urlFor` or tests). Every way this can fail is a `CliError`
 * with one line to show.
 */

/** A failure the CLI reports as one line (and exit code 2). */
export class CliError extends Error {
  override readonly name = "CliError";
}

const NODE_KINDS = new Set(["method", "path", "pathVar", "pathEnd", "alt", "guard", "handler"]);

function isTree(value: unknown): value is RouteNode {
  return typeof value === "object" && value !== null && NODE_KINDS.has((value as { kind?: unknown }).kind as string);
}

/**
 * The tree exported by the module at `file` (resolved from `cwd`). With `exportName`, that export: a
 * tree, or a function called with no arguments that returns one (`createApp`).
 */
export async function loadTree(file: string, exportName: string | undefined, cwd: string): Promise<RouteNode> {
  const resolved = path.resolve(cwd, file);
  if (!existsSync(resolved)) throw new CliError(`cannot load ${file}: no such file (${resolved})`);
  let namespace: Record<string, unknown>;
  try {
    namespace = (await import(pathToFileURL(resolved).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`cannot load ${file}: ${loadFailure(file, error)}`);
  }
  const exports = exportsOf(namespace);
  if (exportName !== undefined) return named(file, exports, exportName);
  if (isTree(exports.get("default"))) return exports.get("default") as RouteNode;
  const trees = [...exports].filter((entry): entry is [string, RouteNode] => isTree(entry[1]));
  const outer = outermost(trees.map(([, tree]) => tree));
  if (outer !== undefined) return outer;
  const names = [...exports.keys()].join(", ") || "nothing";
  throw new CliError(
    trees.length === 0
      ? `${file} exports no route tree (it exports: ${names}); pass --export NAME for a function that builds one`
      : `${file} exports ${trees.length} route trees (${trees.map(([n]) => n).join(", ")}) and none of them contains ` +
          "all the others; pick one with --export NAME",
  );
}

/**
 * The one tree among `trees` that contains all of them (the same node, or one reachable from it), or
 * `undefined` when there is none or more than one. The same tree exported under two names counts once.
 */
function outermost(trees: readonly RouteNode[]): RouteNode | undefined {
  const distinct = [...new Set(trees)];
  const containing = distinct.filter((outer) => distinct.every((inner) => contains(outer, inner)));
  return containing.length === 1 ? containing[0] : undefined;
}

/** True when `inner` is `outer` or a node of it. */
function contains(outer: RouteNode, inner: RouteNode): boolean {
  return outer === inner || someNode(outer, inner.kind, (node) => node === inner);
}

/** The module's exports by name; a CommonJS module's `module.exports` object is looked into too. */
function exportsOf(namespace: Record<string, unknown>): Map<string, unknown> {
  const exports = new Map<string, unknown>(Object.entries(namespace).filter(([name]) => name !== "__esModule"));
  const fallback = namespace.default;
  if (typeof fallback === "object" && fallback !== null && !isTree(fallback)) {
    for (const [name, value] of Object.entries(fallback))
      if (!exports.has(name) && name !== "__esModule") exports.set(name, value);
    exports.delete("default");
  }
  return exports;
}

function named(file: string, exports: Map<string, unknown>, name: string): RouteNode {
  if (!exports.has(name))
    throw new CliError(
      `${file} has no export named ${JSON.stringify(name)} (it exports: ${[...exports.keys()].join(", ") || "nothing"})`,
    );
  let value = exports.get(name);
  if (typeof value === "function") {
    try {
      value = (value as () => unknown)();
    } catch (error) {
      throw new CliError(`${file}: calling ${name}() failed: ${firstLine(error)}`);
    }
  }
  if (!isTree(value))
    throw new CliError(
      `${file}: the export ${JSON.stringify(name)} is not a route tree (nor a function returning one)`,
    );
  return value;
}

const TYPESCRIPT = /\.(ts|mts|cts|tsx)$/i;
const BUILD_FIRST = "build it first (npx tsc) and pass the .js file it writes";
const LOADER =
  'run the CLI under a TypeScript loader such as tsx (NODE_OPTIONS="--import tsx" npx switchyard-router …)';

/**
 * Why a module did not load, for the error line: the error's first line, or for a TypeScript file
 * Node could not run, what to do instead. `version` is Node's (`22.6.0`): Node strips types with
 * `--experimental-strip-types` from 22.6 (and 23.0), by itself from 22.18 (and 23.6); it never runs
 * `.tsx`, nor TypeScript that is not erasable (an `enum`, parameter properties), nor reads
 * `./users.js` as `./users.ts` as tsc does.
 */
export function loadFailure(file: string, error: unknown, version: string = process.versions.node): string {
  const reason = firstLine(error);
  if (!TYPESCRIPT.test(file)) return reason;
  const code = (error as { code?: unknown } | null)?.code;
  const [major = 0, minor = 0] = version.split(".").map(Number);
  const stripsWithFlag = (major === 22 && minor >= 6) || major >= 23;
  const stripsByItself = (major === 22 && minor >= 18) || (major === 23 && minor >= 6) || major >= 24;
  if (code === "ERR_UNKNOWN_FILE_EXTENSION") {
    if (/\.tsx$/i.test(file)) return `Node does not run .tsx files: ${BUILD_FIRST}, or ${LOADER}`;
    if (!stripsWithFlag)
      return (
        `Node ${version} does not run TypeScript: ${BUILD_FIRST}, or ${LOADER}; ` +
        "Node ≥ 22.6 runs TypeScript with --experimental-strip-types"
      );
    if (!stripsByItself)
      return (
        `Node ${version} runs TypeScript only with --experimental-strip-types ` +
        `(NODE_OPTIONS=--experimental-strip-types npx switchyard-router …), or ${BUILD_FIRST}`
      );
    return `type stripping is off in this Node (--no-experimental-strip-types): ${BUILD_FIRST}, or turn it on`;
  }
  if (code === "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX" || code === "ERR_INVALID_TYPESCRIPT_SYNTAX")
    return `${reason} (Node runs only erasable TypeScript: ${BUILD_FIRST}, or ${LOADER})`;
  const missing = /^Cannot find module '(.+)\.js'/.exec(reason)?.[1];
  if (code === "ERR_MODULE_NOT_FOUND" && missing !== undefined && existsSync(`${missing}.ts`))
    return `${reason} (Node does not read a .js import as the .ts file beside it, as tsc does: ${BUILD_FIRST}, or ${LOADER})`;
  return reason;
}

/** The first line of an error's message. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!;
}
