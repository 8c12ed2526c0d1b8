import { validate } from "@readme/openapi-parser";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { printRoutes, type RouteNode } from "../src";

/*
 * The switchyard-router command, run as a child process from the built package (the "bin" entry),
 * on sample modules in test/fixtures.
 */

const root = path.resolve(__dirname, "..");
const bin = path.join(root, (require("../package.json") as { bin: Record<string, string> }).bin["switchyard-router"]!);

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd: root, encoding: "utf8" });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A failure: exit code 2 and exactly one line on stderr. */
function expectOneLineError(result: ReturnType<typeof cli>, pattern: RegExp): void {
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
      /exports 2 route trees \(adminApi, publicApi\); pick one with --export NAME/,
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
