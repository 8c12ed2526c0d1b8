// Serves the shared behaviour table app (behaviour.cjs) through the package's Fetch handler on Bun or
// Deno, on 127.0.0.1 and a port the system picks, and prints `listening <port>` once it listens. Run by
// test/runtimes.test.ts as `<runtime> serve-fetch.mjs <format> <main entry> <fetch entry> <table module>`.
// It exits when its standard input closes, so a test run that dies cannot leave it behind.
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const [format, mainEntry, fetchEntry, tableModule] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const load = async (file) => (format === "commonjs" ? require(file) : await import(pathToFileURL(file).href));

const lib = await load(mainEntry);
const { toFetch } = await load(fetchEntry);
const table = require(tableModule);
const handler = toFetch(table.createApp(lib), table.createOptions(lib));

const announce = (port) => console.log(`listening ${port}`);
if (typeof Deno !== "undefined") {
  Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => announce(port) }, handler);
} else if (typeof Bun !== "undefined") {
  announce(Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).port);
} else {
  throw new Error("serve-fetch.mjs runs on Bun or Deno");
}

process.stdin.on("end", () => process.exit(0));
process.stdin.resume();
