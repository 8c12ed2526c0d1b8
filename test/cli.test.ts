import { validate } from "@readme/openapi-parser";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadFailure } from "../cli/load";
import { printRoutes, type RouteNode } from "../src";

/*
 * The switchyard-router command, run as a child process from the built package (the "bin" entry),
 * on sample modules in test/fixtures. Each run is killed after CLI_TIMEOUT: a command that hangs
 * fails its test (status null, signal SIGKILL) instead of stalling the suite.
 */

const root = path.resolve(__dirname, "..");
const bin = path.join(root, (require("../package.json") as { bin: Record<string, string> }).bin["switchyard-router"]!);
const CLI_TIMEOUT = 8_000;
jest.setTimeout(4 * CLI_TIMEOUT);

interface CliResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): CliResult {
  return cliWith({}, ...args);
}

/** The command with more environment variables (the fixtures' switches). */
function cliWith(env: Record<string, string>, ...args: string[]): CliResult {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, ...env },
    timeout: CLI_TIMEOUT,
    killSignal: "SIGKILL",
  });
  return { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** A failure: exit code 2 and exactly one line on stderr. */
function expectOneLineError(result: CliResult, pattern: RegExp): void {
  expect(result.status).toBe(2);
  expect(result.stdout).toBe("");
  expect(result.stderr.endsWith("\n")).toBe(true);
  expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(/^switchyard-router: /);
  expect(result.stderr).toMatch(pattern);
}

describe("switchyard-router routes / shadowed", () => {
  const app = "test/fixtures/cli-app.cjs";

  test("the bin entry is the built CLI, a node script", () => {
    expect(readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  test("routes prints the table printRoutes gives, then the shadow report", () => {
    const result = cli("routes", app);
    expect(result.status).toBe(0);
    const tree = require("./fixtures/cli-app.cjs") as RouteNode;
    expect(result.stdout.startsWith(printRoutes(tree))).toBe(true);
    expect(result.stdout).toContain("#4 GET /api/users/me (me): unreachable");
    expect(result.stderr).toBe("");
  });

  test("--check exits with 1 when a route is unreachable, 0 when none is", () => {
    expect(cli("routes", app, "--check").status).toBe(1);
    expect(cli("shadowed", app, "--check").status).toBe(1);
    const clean = cli("shadowed", "test/fixtures/cli-apps.mjs", "--export", "publicApi", "--check");
    expect(clean).toMatchObject({ status: 0, stdout: "no route is caught by an earlier one\n" });
  });

  test("an ES module: --export picks a tree, or calls a function that builds one", () => {
    expect(cli("routes", "test/fixtures/cli-apps.mjs", "--export", "publicApi").stdout).toMatch(
      /1\s+GET\s+\/health\s+health\n$/,
    );
    const built = cli("routes", "test/fixtures/cli-apps.mjs", "--export", "createApp");
    expect(built.status).toBe(0);
    expect(built.stdout.trimEnd().split("\n")).toHaveLength(3);
  });

  test("--help", () => {
    expect(cli("--help")).toMatchObject({
      status: 0,
      stdout: expect.stringContaining("usage: switchyard-router <command> <module>"),
    });
    expect(cli("--help").stdout).toMatch(/contains all the others.*exit codes: 0 done, 1 --check.*exits when done/s);
  });
});

describe("switchyard-router openapi", () => {
  test("--out writes a valid document with the given title, version and servers", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "switchyard-cli-"));
    try {
      const out = path.join(dir, "api.json");
      const result = cli(
        "openapi",
        "test/fixtures/cli-app.cjs",
        "--out",
        out,
        "--title",
        "Users",
        "--api-version",
        "2.0.0",
        "--server",
        "https://a.example",
        "--server",
        "https://b.example",
      );
      expect(result).toMatchObject({ status: 0, stdout: "", stderr: "" });
      const document = JSON.parse(readFileSync(out, "utf8")) as {
        info: unknown;
        servers: unknown;
        paths: Record<string, unknown>;
      };
      expect(document.info).toEqual({ title: "Users", version: "2.0.0" });
      expect(document.servers).toEqual([{ url: "https://a.example" }, { url: "https://b.example" }]);
      expect(Object.keys(document.paths)).toEqual(["/api/users", "/api/users/{id}", "/api/users/me"]);
      expect((await validate(document as never)).valid).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("without --out, the document goes to stdout", () => {
    const result = cli("openapi", "test/fixtures/cli-apps.mjs", "--export", "createApp");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ openapi: "3.1.0", info: { title: "API", version: "0.0.0" } });
  });
});

describe("errors are one clear line, exit code 2", () => {
  test.each([
    [["routes", "test/fixtures/no-such-app.js"], /cannot load test\/fixtures\/no-such-app\.js: no such file/],
    [
      ["routes", "test/fixtures/cli-throws.cjs"],
      /cannot load test\/fixtures\/cli-throws\.cjs: database not configured$/m,
    ],
    [
      ["routes", "test/fixtures/cli-apps.mjs"],
      /exports 2 route trees \(adminApi, publicApi\) and none of them contains all the others; pick one with --export NAME/,
    ],
    [["routes", "test/fixtures/cli-apps.mjs", "--export", "version"], /the export "version" is not a route tree/],
    [
      ["routes", "test/fixtures/cli-apps.mjs", "--export", "nope"],
      /has no export named "nope" \(it exports: .*createApp/,
    ],
    [["routes", "test/fixtures/cli-throws.cjs", "--bogus"], /Unknown option '--bogus'/],
    [["frob", "x.js"], /unknown command "frob"/],
    [[], /no command given/],
    [["openapi"], /openapi: which module\?/],
    [["routes", "a.js", "b.js"], /unexpected argument "b\.js"/],
    [
      ["openapi", "test/fixtures/cli-app.cjs", "--out", "/nonexistent-dir/x/api.json"],
      /cannot write \/nonexistent-dir\/x\/api\.json: /,
    ],
  ])("%j", (args, pattern) => {
    expectOneLineError(cli(...args), pattern);
  });

  test("a file that exports no tree", () => {
    expectOneLineError(
      cli("routes", "test/fixtures/empty-module.mjs"),
      /exports no route tree \(it exports: nothing\)/,
    );
  });
});

describe("a module that starts a server: the command still exits, with its code", () => {
  const listens = "test/fixtures/cli-listens.cjs";
  const note = "note: the module started a server; exiting anyway\n";

  test("routes: the table, exit code 0, and a note on stderr", () => {
    const result = cli("routes", listens);
    expect(result).toMatchObject({ status: 0, signal: null, stderr: note });
    expect(result.stdout).toMatch(/^1\s+GET\s+\/users\/\{name:Text\}\s+userByName$/m);
    expect(result.stdout).toContain("#2 GET /users/me (me): unreachable");
  });

  test("--check: exit code 1 for the unreachable route", () => {
    expect(cli("routes", listens, "--check")).toMatchObject({ status: 1, signal: null, stderr: note });
  });

  test("openapi to stdout: the whole document, then the exit", () => {
    const result = cli("openapi", listens);
    expect(result).toMatchObject({ status: 0, signal: null, stderr: note });
    expect(Object.keys((JSON.parse(result.stdout) as { paths: object }).paths)).toEqual(["/users/{name}", "/users/me"]);
  });

  test("errors once the server is up: exit code 2, the error line, then the note", () => {
    const wrongExport = cli("routes", listens, "--export", "nope");
    expect(wrongExport).toMatchObject({ status: 2, signal: null, stdout: "" });
    expect(wrongExport.stderr).toMatch(/^switchyard-router: .* has no export named "nope".*\nnote: the module started/);
    const throws = cliWith({ THROW_AFTER_LISTEN: "1" }, "routes", listens);
    expect(throws).toMatchObject({
      status: 2,
      signal: null,
      stdout: "",
      stderr: `switchyard-router: cannot load ${listens}: config file missing\n${note}`,
    });
  });

  test("a server that cannot listen (its port is taken): one line, exit code 2", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    try {
      const port = (taken.address() as { port: number }).port;
      const result = cliWith({ LISTEN_PORT: String(port) }, "routes", listens, "--check");
      expect(result).toMatchObject({ status: 2, signal: null });
      expect(result.stderr).toContain(
        `switchyard-router: uncaught error from the module: listen EADDRINUSE: address already in use :::${port}\n`,
      );
    } finally {
      taken.close();
    }
  });

  test("a promise the module rejected and left unhandled: counted, though raised after the output", () => {
    const result = cli("routes", "test/fixtures/cli-rejects.mjs");
    expect(result).toMatchObject({
      status: 2,
      signal: null,
      stderr: "switchyard-router: uncaught error from the module: cache warm-up failed\n",
    });
    expect(result.stdout).toMatch(/^1\s+GET\s+\/health\s+health$/m);
  });

  test("a module whose top-level await never settles, or that calls process.exit(0): exit code 2, not a silent 0", () => {
    const ended =
      "switchyard-router: the module ended the process before it finished loading " +
      "(it called process.exit(), or its top-level await never settles)\n";
    const expected = { status: 2, signal: null, stdout: "", stderr: ended };
    expect(cli("routes", "test/fixtures/cli-never-loads.mjs")).toMatchObject(expected);
    expect(cliWith({ EXIT_WHILE_LOADING: "0" }, "routes", "test/fixtures/cli-never-loads.mjs")).toMatchObject(expected);
    // a code of its own is kept
    expect(cliWith({ EXIT_WHILE_LOADING: "3" }, "routes", "test/fixtures/cli-never-loads.mjs")).toMatchObject({
      ...expected,
      status: 3,
    });
  });
});

describe("which export is listed when the module exports several trees", () => {
  /** The handler column of `routes`, one per route. */
  function handlers(result: CliResult): string[] {
    expect(result).toMatchObject({ status: 0, signal: null, stderr: "" });
    return result.stdout
      .split("\n\n")[0]!
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => line.split(/\s{2,}/)[3]!);
  }

  test("the default export", () => {
    expect(handlers(cli("routes", "test/fixtures/cli-default.mjs"))).toEqual(["health"]);
  });

  test("--export NAME, over the default export and when none contains the others", () => {
    expect(handlers(cli("routes", "test/fixtures/cli-default.mjs", "--export", "adminApi"))).toEqual(["clearCache"]);
    expect(handlers(cli("routes", "test/fixtures/cli-apps.mjs", "--export", "adminApi"))).toEqual(["clearCache"]);
    expect(handlers(cli("routes", "test/fixtures/cli-contained.mjs", "--export", "byId"))).toEqual(["userById"]);
  });

  test("no default: the one tree that contains all the others (an app and its exported subtrees)", () => {
    expect(handlers(cli("routes", "test/fixtures/cli-contained.mjs"))).toEqual(["health", "userById", "userByName"]);
  });

  test("none contains all the others: the trees are listed, --export asked for, exit code 2", () => {
    expectOneLineError(
      cli("routes", "test/fixtures/cli-apps.mjs"),
      /^switchyard-router: test\/fixtures\/cli-apps\.mjs exports 2 route trees \(adminApi, publicApi\) and none of them contains all the others; pick one with --export NAME\n$/,
    );
  });
});

describe("a TypeScript module: what to do instead, for the Node that runs the CLI", () => {
  test("the real run: one line naming the build and the option for this Node, not a bare ERR_UNKNOWN_FILE_EXTENSION", () => {
    const result = cli("routes", "test/fixtures/cli-app.ts");
    expectOneLineError(result, /^switchyard-router: cannot load test\/fixtures\/cli-app\.ts: /);
    expect(result.stderr).toContain("build it first (npx tsc) and pass the .js file it writes");
    expect(result.stderr).not.toContain("Unknown file extension");
    const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
    if (major < 22 || (major === 22 && minor < 6))
      expect(result.stderr).toContain(
        `Node ${process.versions.node} does not run TypeScript: build it first (npx tsc) and pass the .js file it writes, ` +
          'or run the CLI under a TypeScript loader such as tsx (NODE_OPTIONS="--import tsx" npx switchyard-router …); ' +
          "Node ≥ 22.6 runs TypeScript with --experimental-strip-types\n",
      );
  });

  const unknownExtension = Object.assign(new Error('Unknown file extension ".ts" for /app/app.ts'), {
    code: "ERR_UNKNOWN_FILE_EXTENSION",
  });

  test.each([
    [
      "20.19.0",
      /^Node 20\.19\.0 does not run TypeScript: build it first .*--import tsx.*; Node ≥ 22\.6 runs TypeScript with --experimental-strip-types$/,
    ],
    ["22.5.1", /^Node 22\.5\.1 does not run TypeScript: .*Node ≥ 22\.6 runs/],
    [
      "22.6.0",
      /^Node 22\.6\.0 runs TypeScript only with --experimental-strip-types \(NODE_OPTIONS=--experimental-strip-types npx switchyard-router …\), or build it first/,
    ],
    ["23.5.0", /^Node 23\.5\.0 runs TypeScript only with --experimental-strip-types/],
    ["22.18.0", /^type stripping is off in this Node \(--no-experimental-strip-types\): build it first/],
    ["24.1.0", /^type stripping is off in this Node/],
  ])("unknown extension .ts on Node %s", (version, expected) => {
    expect(loadFailure("app.ts", unknownExtension, version)).toMatch(expected);
  });

  test("a .tsx file, TypeScript Node cannot strip, a .js import of a .ts file; other files and errors as they are", () => {
    expect(loadFailure("app.tsx", unknownExtension, "24.1.0")).toMatch(
      /^Node does not run \.tsx files: build it first/,
    );
    const enumError = Object.assign(new Error("TypeScript enum is not supported in strip-only mode"), {
      code: "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
    });
    expect(loadFailure("app.mts", enumError, "24.1.0")).toMatch(
      /^TypeScript enum is not supported in strip-only mode \(Node runs only erasable TypeScript: build it first .*--import tsx/,
    );
    const beside = path.join(root, "test/fixtures/cli-app");
    const notFound = Object.assign(new Error(`Cannot find module '${beside}.js' imported from /app/server.ts`), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    expect(loadFailure("server.ts", notFound, "24.1.0")).toMatch(
      /\(Node does not read a \.js import as the \.ts file beside it, as tsc does: build it first/,
    );
    const missingPackage = Object.assign(new Error("Cannot find package 'express' imported from /app/app.ts"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    expect(loadFailure("app.ts", missingPackage, "24.1.0")).toBe(
      "Cannot find package 'express' imported from /app/app.ts",
    );
    expect(loadFailure("app.js", unknownExtension, "20.19.0")).toBe('Unknown file extension ".ts" for /app/app.ts');
    expect(loadFailure("app.ts", new Error("database not configured\nsecond line"), "20.19.0")).toBe(
      "database not configured",
    );
  });
});

describe("names in the listing", () => {
  test("a function's name, the route info's name, <inline> for a function written in the route", () => {
    const result = cli("routes", "test/fixtures/cli-names.mjs");
    expect(result).toMatchObject({ status: 0, signal: null, stderr: "" });
    expect(result.stdout.trimEnd().split("\n")).toEqual([
      "#  METHOD  PATH     HANDLER     NOTES",
      "1  GET     /users   listUsers",
      "2  GET     /health  <inline>",
      "3  GET     /docs    Docs.index",
      "4  DELETE  /cache   clear       guard: <inline>",
      "5  GET     /admin   <inline>    guard: isAdmin, <inline>",
    ]);
  });
});
