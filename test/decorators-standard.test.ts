import { transformSync } from "@swc/core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as decorators from "../decorators";
import { ControllerError } from "../decorators";
import { errorOf } from "./helpers/decorators";

/*
 * TC39 standard decorators (no experimentalDecorators) call decorators as (value, context). The
 * fixture, compiled that way by tsc and by swc, must fail when its class is defined with the one error
 * that says how to enable legacy decorators — not a misleading "static method" error.
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

function expectStandardDecoratorError(code: string): void {
  const error = errorOf(() => run(code)) as ControllerError;
  expect(error).toBeInstanceOf(ControllerError);
  expect(error.code).toBe("STANDARD_DECORATORS");
  // the method decorator runs first and names the method; the message says what to change per tool
  expect(error.message).toMatch(
    /^\(a class\)\.list: @Route: switchyard-router's decorators are TypeScript's legacy decorators/,
  );
  for (const fix of [
    '"experimentalDecorators": true',
    '"emitDecoratorMetadata": true',
    "jsc.transform.legacyDecorator: true",
    "esbuild",
  ]) {
    expect(error.message).toContain(fix);
  }
  expect(error.message).not.toContain("static");
}

test("compiled by tsc without experimentalDecorators", () => {
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
    expectStandardDecoratorError(code);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test("compiled by swc with 2022-03 decorators", () => {
  const { code } = transformSync(readFileSync(fixture, "utf8"), {
    filename: fixture,
    jsc: {
      parser: { syntax: "typescript", decorators: true },
      transform: { decoratorVersion: "2022-03" },
      target: "es2022",
    },
    module: { type: "commonjs" },
  });
  expectStandardDecoratorError(code);
});

test("compiled the legacy way (as this suite is), the same file defines a working controller", () => {
  const { code } = transformSync(readFileSync(fixture, "utf8"), {
    filename: fixture,
    jsc: {
      parser: { syntax: "typescript", decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: "es2022",
    },
    module: { type: "commonjs" },
  });
  const { UsersController } = run(code) as { UsersController: decorators.ControllerClass };
  expect(() => decorators.controllers([UsersController])).not.toThrow();
});

test("every decorator recognises the standard call shape", () => {
  const method = { kind: "method", name: "m", static: false, private: false };
  const cls = { kind: "class", name: "C" };
  const fn = () => undefined;
  const calls: [string, () => unknown][] = [
    ["@Route", () => (decorators.Route("GET /") as (...a: unknown[]) => void)(fn, method)],
    ["@Match", () => (decorators.Match("/x") as (...a: unknown[]) => void)(class {}, cls)],
    ["@Guard", () => (decorators.Guard(() => true) as (...a: unknown[]) => void)(fn, method)],
    ["@Guard", () => (decorators.Guard(() => true) as (...a: unknown[]) => void)(class {}, cls)],
  ];
  for (const [name, call] of calls) {
    const error = errorOf(call) as ControllerError;
    expect(error.code).toBe("STANDARD_DECORATORS");
    expect(error.message).toContain(`${name}: switchyard-router's decorators are TypeScript's legacy decorators`);
  }
});
