import { transformSync } from "@swc/core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as decorators from "../decorators";
import { ControllerError } from "../decorators";
import { inject } from "../src";
import { errorOf } from "./helpers/decorators";

/*
 * TC39 standard decorators (no experimentalDecorators) call decorators as (value, context). @Match,
 * @Route, @Handle, @Guard and @Use take that shape too (test/decorators-checked-standard.test.ts runs a
 * whole controller file compiled every way); parameter decorators cannot exist there, and a standard
 * call of one is refused with the one error that names the checked style and each toolchain's setting.
 */

const root = path.resolve(__dirname, "..");
const fixture = path.join(root, "test/fixtures/standard-decorators.ts");

/** Runs CommonJS `code` in this process, with the package's decorators as its import. */
function run(code: string): unknown {
  const module = { exports: {} };
  const load = (id: string): unknown => {
    if (id === "switchyard-router/decorators") return decorators;
    throw new Error(`unexpected import ${id}`);
  };
  new Function("require", "module", "exports", code)(load, module, module.exports);
  return module.exports;
}

async function expectWorkingController(code: string): Promise<void> {
  const { UsersController } = run(code) as { UsersController: decorators.ControllerClass };
  const answer = await inject(decorators.controllers([UsersController]), { url: "/users" });
  expect([answer.status, answer.body]).toEqual([200, '["ada"]']);
}

test("compiled by tsc without experimentalDecorators, the fixture defines a working controller", async () => {
  const out = mkdtempSync(path.join(tmpdir(), "switchyard-tc39-"));
  try {
    execFileSync(
      process.execPath,
      [
        path.join(root, "node_modules/typescript/bin/tsc"),
        "--ignoreConfig",
        "--experimentalDecorators",
        "false",
        "--target",
        "es2022",
        "--module",
        "commonjs",
        "--noCheck",
        "--outDir",
        out,
        "--rootDir",
        path.dirname(fixture),
        fixture,
      ],
      { cwd: root },
    );
    const code = readFileSync(path.join(out, "standard-decorators.js"), "utf8");
    expect(code).toContain("__esDecorate"); // really the standard form
    await expectWorkingController(code);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("compiled by swc with 2022-03 decorators, the same", async () => {
  const { code } = transformSync(readFileSync(fixture, "utf8"), {
    filename: fixture,
    jsc: {
      parser: { syntax: "typescript", decorators: true },
      transform: { decoratorVersion: "2022-03" },
      target: "es2022",
    },
    module: { type: "commonjs" },
  });
  await expectWorkingController(code);
});

test("compiled the legacy way (as this suite is), the same", async () => {
  const { code } = transformSync(readFileSync(fixture, "utf8"), {
    filename: fixture,
    jsc: {
      parser: { syntax: "typescript", decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: "es2022",
    },
    module: { type: "commonjs" },
  });
  await expectWorkingController(code);
});

test("every parameter decorator refuses the standard call shape, naming the checked style and the settings", () => {
  const method = { kind: "method", name: "m", static: false, private: false };
  const calls: [string, () => unknown][] = [
    ["@PathVar", () => (decorators.PathVar("id") as (...a: unknown[]) => void)(undefined, method)],
    ["@Req", () => (decorators.Req() as (...a: unknown[]) => void)(undefined, method)],
    ["@Query", () => (decorators.Query("q") as (...a: unknown[]) => void)(undefined, method)],
  ];
  for (const [name, call] of calls) {
    const error = errorOf(call) as ControllerError;
    expect(error.code).toBe("STANDARD_DECORATORS");
    expect(error.message).toMatch(new RegExp(`^\\(a class\\)\\.m: ${name}: parameter decorators exist only as`));
    for (const fix of [
      "the checked style",
      "@Handle(",
      '"experimentalDecorators": true',
      '"emitDecoratorMetadata": true',
      "jsc.transform.legacyDecorator: true",
      "esbuild",
      "deno.json",
    ]) {
      expect(error.message).toContain(fix);
    }
  }
});

test("the class and method decorators accept the standard call shape", () => {
  const metadata = {};
  const method = { kind: "method", name: "m", static: false, private: false, metadata };
  const cls = { kind: "class", name: "C", metadata };
  const fn = () => undefined;
  expect(() => (decorators.Route("GET /") as (...a: unknown[]) => void)(fn, method)).not.toThrow();
  expect(() => (decorators.Handle("GET /") as (...a: unknown[]) => void)(fn, method)).not.toThrow();
  expect(() => (decorators.Guard(() => true) as (...a: unknown[]) => void)(fn, method)).not.toThrow();
  expect(() => (decorators.Use((_r, next) => next()) as (...a: unknown[]) => void)(fn, method)).not.toThrow();
  expect(() => (decorators.Match("/x") as (...a: unknown[]) => void)(class {}, cls)).not.toThrow();
  // misuse is refused as under legacy decorators, the class unknown to a standard method decorator
  const stat = { ...method, static: true };
  const error = errorOf(() => (decorators.Route("GET /") as (...a: unknown[]) => void)(fn, stat)) as ControllerError;
  expect([error.code, error.message]).toEqual([
    "STATIC_METHOD",
    "(a class).m: @Route is on a static method; routes are instance methods",
  ]);
});
