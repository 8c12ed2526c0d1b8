import { readFileSync } from "node:fs";
import path from "node:path";
import * as decorators from "../decorators";
import { ControllerError } from "../decorators";
import { inject } from "../src";
import { runCommonJs, swcToCommonJs, tscToCommonJs } from "./helpers/compile-decorators";
import { errorOf } from "./helpers/decorators";

/*
 * TC39 standard decorators (no experimentalDecorators) call decorators as (value, context). @Match,
 * @Route, @Handle, @Guard and @Use take that shape too (test/decorators-checked-standard.test.ts runs a
 * whole controller file compiled every way); parameter decorators cannot exist there, and a standard
 * call of one is refused with the one error that names the checked style and each toolchain's setting.
 */

const fixture = path.resolve(__dirname, "fixtures/standard-decorators.ts");
const source = readFileSync(fixture, "utf8");

/** Runs CommonJS `code` in this process, with the package's decorators as its import. */
function run(code: string): unknown {
  return runCommonJs(code, { "switchyard-router/decorators": decorators });
}

async function expectWorkingController(code: string): Promise<void> {
  const { UsersController } = run(code) as { UsersController: decorators.ControllerClass };
  const answer = await inject(decorators.controllers([UsersController]), { url: "/users" });
  expect([answer.status, answer.body]).toEqual([200, '["ada"]']);
}

test("compiled by tsc without experimentalDecorators, the fixture defines a working controller", async () => {
  const code = tscToCommonJs(source, false);
  expect(code).toContain("__esDecorate"); // really the standard form
  await expectWorkingController(code);
});

test("compiled by swc with 2022-03 decorators, the same", async () => {
  await expectWorkingController(swcToCommonJs(source, fixture, "2022-03"));
});

test("compiled the legacy way (as this suite is), the same", async () => {
  await expectWorkingController(swcToCommonJs(source, fixture, "legacy"));
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
