import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { printRoutes } from "../src/tools/listing.js";
import { openapi } from "../src/tools/openapi.js";
import { printShadowed, shadowed } from "../src/tools/shadow.js";
import { CliError, firstLine, loadTree } from "./load.js";

/*
 * The command-line tool: loads a module that exports a route tree and prints its routes, its shadow
 * report, or its OpenAPI document. Exit codes: 0 done, 1 `--check` found an unreachable route,
 * 2 a usage or loading error (one line on stderr). main.ts makes the process exit when done.
 */

export const USAGE = `usage: switchyard-router <command> <module> [options]

commands:
  routes <module>     the route table, in the order routes are tried, then the shadow report
  shadowed <module>   the shadow report only
  openapi <module>    the OpenAPI 3.1 document (JSON)

<module> is a JavaScript file that exports a route tree (a .ts file: build it first, or run the
command under a TypeScript loader). The tree listed is the export --export names, else the default
export, else the one exported tree, or the one that contains all the others (an app, and subtrees of
it exported too); otherwise the command names the trees and asks for --export.

options:
  --export NAME       the export holding the tree, or a function that builds it (called with no
                      arguments)
  --check             (routes, shadowed) exit with 1 when a route is unreachable
  --out FILE          (openapi) write the document to FILE instead of stdout
  --title TEXT        (openapi) info.title (default "API")
  --api-version TEXT  (openapi) info.version (default "0.0.0")
  --server URL        (openapi) a server URL; may be repeated
  --help              this text

exit codes: 0 done, 1 --check found an unreachable route, 2 an error (one line on stderr: a usage
error, a module that does not load or throws, no tree to list). The command exits when done even if
the module started a server or a timer (a note on stderr says so).
`;

/** Where the tool writes. */
export interface Output {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs the tool on `args` (without `node` and the script); resolves to the exit code. */
export async function run(args: readonly string[], out: Output, cwd: string): Promise<number> {
  try {
    return await runCommand(args, out, cwd);
  } catch (error) {
    out.stderr(`switchyard-router: ${error instanceof CliError ? error.message : firstLine(error)}\n`);
    return 2;
  }
}

async function runCommand(args: readonly string[], out: Output, cwd: string): Promise<number> {
  const { values, positionals } = parse(args);
  if (values.help === true) {
    out.stdout(USAGE);
    return 0;
  }
  const [command, file, ...extra] = positionals;
  if (command === undefined) throw new CliError("no command given (routes, shadowed or openapi); see --help");
  if (!["routes", "shadowed", "openapi"].includes(command))
    throw new CliError(`unknown command ${JSON.stringify(command)} (routes, shadowed or openapi); see --help`);
  if (file === undefined) throw new CliError(`${command}: which module? (switchyard-router ${command} ./dist/app.js)`);
  if (extra.length > 0) throw new CliError(`${command}: unexpected argument ${JSON.stringify(extra[0])}`);
  const tree = await loadTree(file, values.export, cwd);
  if (command === "openapi") {
    const document = openapi(tree, {
      info: { title: values.title ?? "API", version: values["api-version"] ?? "0.0.0" },
      ...(values.server === undefined ? {} : { servers: values.server.map((url) => ({ url })) }),
    });
    const json = `${JSON.stringify(document, null, 2)}\n`;
    if (values.out === undefined) out.stdout(json);
    else writeDocument(values.out, json, cwd);
    return 0;
  }
  if (command === "routes") out.stdout(printRoutes(tree));
  const report = printShadowed(tree);
  if (report !== "") out.stdout(`${command === "routes" ? "\n" : ""}${report}`);
  else if (command === "shadowed") out.stdout("no route is caught by an earlier one\n");
  return values.check === true && shadowed(tree).some((s) => s.verdict === "unreachable") ? 1 : 0;
}

function parse(args: readonly string[]) {
  try {
    return parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        export: { type: "string" },
        check: { type: "boolean" },
        out: { type: "string" },
        title: { type: "string" },
        "api-version": { type: "string" },
        server: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new CliError(`${firstLine(error)}; see --help`);
  }
}

function writeDocument(file: string, json: string, cwd: string): void {
  try {
    writeFileSync(path.resolve(cwd, file), json);
  } catch (error) {
    throw new CliError(`cannot write ${file}: ${firstLine(error)}`);
  }
}
