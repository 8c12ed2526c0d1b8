// Serves the shared behaviour table app (behaviour.cjs) through the package's Fetch handler on Bun or
// Deno, on 127.0.0.1 and a port the system picks, and prints `listening <port>` once it listens. Run by
// test/runtimes.test.ts as `<runtime> serve-fetch.mjs <format> <main entry> <fetch entry> <table module>`.
// It exits when its standard input closes (serve-on-runtime.mjs).
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { serveOnRuntime } from "./serve-on-runtime.mjs";

const [format, mainEntry, fetchEntry, tableModule] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const load = async (file) => (format === "commonjs" ? require(file) : await import(pathToFileURL(file).href));

const lib = await load(mainEntry);
const { toFetch } = await load(fetchEntry);
const table = require(tableModule);
const handler = toFetch(table.createApp(lib), table.createOptions(lib));

serveOnRuntime(handler, "serve-fetch.mjs");
