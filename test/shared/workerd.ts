import { Miniflare } from "miniflare";
import { join, relative } from "node:path";
import type { Readable } from "node:stream";
import type { TableRequest } from "./behaviour.cjs";
import { PACKAGE_ENTRY, ROOT, TABLE_MODULE } from "./package-entry";
import { fetchInit, type Observed, observeFetching } from "./table";

/*
 * workerd (the Cloudflare Workers runtime), through miniflare: a worker module that serves the shared
 * table app with the package's Fetch handler. No bundler: miniflare collects the modules the worker
 * imports (following `require` in CommonJS ones) and hands them to workerd as they are.
 */

/** A module specifier for `file`, relative to the worker module (which sits at the root). */
function specifier(file: string): string {
  return `./${relative(ROOT, file).split("\\").join("/")}`;
}

/** The worker: `export default { fetch }`, as a Workers user writes it. */
function workerSource(): string {
  // a CommonJS module's exports are its default export; an ES module's are its namespace
  const load =
    PACKAGE_ENTRY.format === "commonjs"
      ? (name: string, file: string) => `import ${name} from "${specifier(file)}";`
      : (name: string, file: string) => `import * as ${name} from "${specifier(file)}";`;
  return [
    load("lib", PACKAGE_ENTRY.main),
    load("fetchAdapter", PACKAGE_ENTRY.fetch),
    `import table from "${specifier(TABLE_MODULE)}";`,
    "export default { fetch: fetchAdapter.toFetch(table.createApp(lib), table.createOptions(lib)) };",
  ].join("\n");
}

/** A workerd instance serving the table app; `dispose()` it when done. */
export async function startWorkerd(): Promise<Miniflare> {
  const miniflare = new Miniflare({
    modules: true,
    script: workerSource(),
    // the worker's own (virtual) path: where its relative imports resolve from
    scriptPath: join(ROOT, "table-worker.mjs"),
    modulesRoot: ROOT,
    // the package's .js files, and the table (.cjs); a rule given for a type replaces miniflare's default one
    modulesRules:
      PACKAGE_ENTRY.format === "commonjs"
        ? [{ type: "CommonJS", include: ["**/*.js", "**/*.cjs"] }]
        : [
            { type: "ESModule", include: ["**/*.js"] },
            { type: "CommonJS", include: ["**/*.cjs"] },
          ],
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
