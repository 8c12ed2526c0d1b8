import { join, resolve } from "node:path";

/**
 * Where the runtime tests load the built package from (jest's global setup builds `dist/`): the one
 * place to change when the build layout changes. `format` says how a runtime loads these files.
 */
export interface PackageEntry {
  /** `"commonjs"`: loaded with `require`; `"module"`: ES modules, loaded with `import`. */
  readonly format: "commonjs" | "module";
  /** The main entry (`switchyard-router`): the exports the table app is built from. */
  readonly main: string;
  /** The Fetch adapter's entry (`switchyard-router/fetch`): `toFetch`. */
  readonly fetch: string;
  /** The edge entry (`switchyard-router/edge`): the lean `toFetch` (the interpreter, forms when given). */
  readonly edge: string;
}

/** The repository root: the runtimes may read below it. */
export const ROOT = resolve(__dirname, "../..");

/**
 * The ES module bundle: what `import "switchyard-router"` and `import "switchyard-router/fetch"` load on
 * Node, Bun and Deno (package.json's `node` condition).
 */
export const PACKAGE_ENTRY: PackageEntry = {
  format: "module",
  main: join(ROOT, "dist/bundle/esm/index.js"),
  fetch: join(ROOT, "dist/bundle/esm/fetch.js"),
  edge: join(ROOT, "dist/bundle/esm/edge.js"),
};

/** The per-file ES module build: what a Workers bundler reads (no `node` condition). */
export const WORKER_ENTRY: PackageEntry = {
  format: "module",
  main: join(ROOT, "dist/esm/src/index.js"),
  fetch: join(ROOT, "dist/esm/src/adapters/fetch.js"),
  edge: join(ROOT, "dist/esm/src/adapters/edge.js"),
};

/** The shared behaviour table, loaded by every runtime as it is. */
export const TABLE_MODULE = join(ROOT, "test/shared/behaviour.cjs");
