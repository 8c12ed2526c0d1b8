import { init as initLexer, parse as parseImports } from "es-module-lexer";
import { type ModuleDefinition, Miniflare } from "miniflare";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import type { Readable } from "node:stream";
import type { TableRequest } from "./behaviour.cjs";
import { ROOT, TABLE_MODULE, WORKER_ENTRY } from "./package-entry";
import { fetchInit, type Observed, observeFetching } from "./table";

/*
 * workerd (the Cloudflare Workers runtime), through miniflare: a worker module that serves the shared
 * table app with the package's Fetch handler. No bundler: the modules the worker imports are collected
 * (following `import`, `import()` and, in CommonJS ones, `require`) and handed to workerd as they are.
 */

/** A module specifier for `file`, relative to the worker module (which sits at the root). */
function specifier(file: string): string {
  return `./${relative(ROOT, file).split("\\").join("/")}`;
}

/**
 * Which Fetch entry the worker serves the table with: the full one (`switchyard-router/fetch`), or the
 * edge one (`switchyard-router/edge`) given the form reader, as an edge app that reads forms is.
 */
export type WorkerEntry = "fetch" | "edge";

/** The worker: `export default { fetch }`, as a Workers user writes it. */
function workerSource(entry: WorkerEntry): string {
  // a CommonJS module's exports are its default export; an ES module's are its namespace
  const load =
    WORKER_ENTRY.format === "commonjs"
      ? (name: string, file: string) => `import ${name} from "${specifier(file)}";`
      : (name: string, file: string) => `import * as ${name} from "${specifier(file)}";`;
  return [
    load("lib", WORKER_ENTRY.main),
    load("fetchAdapter", WORKER_ENTRY[entry]),
    `import table from "${specifier(TABLE_MODULE)}";`,
    `const options = { ...table.createOptions(lib)${entry === "edge" ? ", forms: lib.formReader" : ""} };`,
    "export default { fetch: fetchAdapter.toFetch(table.createApp(lib), options) };",
  ].join("\n");
}

/**
 * The worker's modules, the worker first. miniflare's own collector resolves every specifier as a path,
 * so it cannot follow a package import (`import("multipasta")`, the form reader's optional peer); here
 * one is resolved as a Workers bundler would (the package's `workerd`, `worker`, `import` or `default`
 * export) and handed to workerd under the name workerd reads a bare specifier as (relative to the
 * importing module's folder), as a module that re-exports the package's.
 */
async function workerModules(entry: WorkerEntry): Promise<ModuleDefinition[]> {
  await initLexer;
  // the worker's own (virtual) path: where its relative imports resolve from
  const worker = join(ROOT, "table-worker.mjs");
  const modules: ModuleDefinition[] = [];
  const seen = new Set<string>();
  const add = (path: string, contents: string, type: ModuleDefinition["type"]): void => {
    if (seen.has(path)) return;
    seen.add(path);
    modules.push({ type, path, contents });
    for (const specifier of specifiersOf(contents, path, type)) {
      if (specifier.startsWith("./") || specifier.startsWith("../")) {
        const target = resolve(dirname(path), specifier);
        add(target, readFileSync(target, "utf8"), moduleType(target));
        continue;
      }
      const entry = packageEntry(specifier, path);
      const shim = join(dirname(path), specifier);
      add(shim, `export * from "./${relative(dirname(shim), entry).split("\\").join("/")}";\n`, "ESModule");
    }
  };
  add(worker, workerSource(entry), "ESModule");
  return modules;
}

/** The `.js` files of the CommonJS build, and `.cjs` files, are CommonJS; other `.js` files (the ES module build, packages) are ES modules. */
function moduleType(file: string): ModuleDefinition["type"] {
  if (file.endsWith(".cjs")) return "CommonJS";
  return relative(join(ROOT, "dist/cjs"), file).startsWith("..") ? "ESModule" : "CommonJS";
}

/** The specifiers a module imports: `import`/`export … from`, `import()` and, in CommonJS, `require()`. */
function specifiersOf(code: string, file: string, type: ModuleDefinition["type"]): string[] {
  const specifiers: string[] = [];
  for (const found of parseImports(code, file)[0]) {
    if (found.n === undefined) throw new Error(`${file}: an import() whose specifier is not a string literal`);
    specifiers.push(found.n);
  }
  if (type === "CommonJS") for (const m of code.matchAll(/\brequire\(\s*"([^"]+)"\s*\)/g)) specifiers.push(m[1]!);
  return specifiers;
}

/** The ES module entry of the package `name` (a bare specifier, without a subpath) seen from `from`. */
function packageEntry(name: string, from: string): string {
  const manifest = require.resolve(`${name}/package.json`, { paths: [dirname(from)] });
  const pkg = JSON.parse(readFileSync(manifest, "utf8")) as {
    exports?: string | Record<string, unknown>;
    module?: string;
    main?: string;
  };
  const root =
    typeof pkg.exports === "object" && pkg.exports !== null && "." in pkg.exports ? pkg.exports["."] : pkg.exports;
  const target = conditional(root) ?? pkg.module ?? pkg.main ?? "index.js";
  return join(dirname(manifest), target);
}

/** An `exports` value read with the conditions a Workers bundler uses, in the object's order. */
function conditional(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null) return undefined;
  for (const [condition, target] of Object.entries(value)) {
    if (!["workerd", "worker", "browser", "import", "default"].includes(condition)) continue;
    const found = conditional(target);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A workerd instance serving the table app through `entry`; `dispose()` it when done. */
export async function startWorkerd(entry: WorkerEntry = "fetch"): Promise<Miniflare> {
  const miniflare = new Miniflare({
    modules: await workerModules(entry),
    modulesRoot: ROOT,
    compatibilityDate: "2025-01-01",
    // workerd logs the errors the table provokes on purpose; a failure to start rejects `ready`
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      stdout.resume();
      stderr.resume();
    },
  });
  try {
    await miniflare.ready;
  } catch (error) {
    // workerd may be running already: stop it, or it keeps the test process alive
    await miniflare.dispose().catch(() => undefined);
    throw error;
  }
  return miniflare;
}

/** Sends a table request to the worker with `dispatchFetch`. */
export function dispatchTableRequest(miniflare: Miniflare, request: TableRequest): Promise<Observed> {
  // miniflare's RequestInit and Response are those of its own copy of undici: the same API
  const init = fetchInit(request) as Parameters<Miniflare["dispatchFetch"]>[1];
  return observeFetching(
    miniflare.dispatchFetch(`http://localhost${request.url}`, init) as unknown as Promise<Response>,
  );
}
