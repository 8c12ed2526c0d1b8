import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

// dist/ is built by the jest global setup; these load it by package name, as a user would.
const root = path.resolve(__dirname, "..");
const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });

describe("package entry points", () => {
  test("require('switchyard-router') works by name (self-reference through exports)", () => {
    const out = run([
      "-e",
      "const s = require('switchyard-router'); console.log(typeof s.route, typeof s.toApplication, s.Int.name)",
    ]);
    expect(out.trim()).toBe("function function Int");
  });

  test("import { … } from 'switchyard-router' works from ESM, and loads the ES module build", () => {
    const out = run([
      "--input-type=module",
      "-e",
      "import { route, alt, Day } from 'switchyard-router'; console.log(typeof route, typeof alt, String(Day.of(2024, 1, 5)), import.meta.resolve('switchyard-router'))",
    ]);
    expect(out.trim()).toBe(
      `function function 2024-01-05 ${pathToFileURL(path.join(root, "dist/esm/src/index.js")).href}`,
    );
  });

  test("require('switchyard-router') loads the CommonJS build", () => {
    expect(run(["-e", "console.log(require.resolve('switchyard-router'))"]).trim()).toBe(
      path.join(root, "dist/cjs/src/index.js"),
    );
  });

  test("the build ships type declarations", () => {
    expect(() =>
      run(["-e", "require('node:fs').accessSync(require.resolve('switchyard-router').replace(/\\.js$/, '.d.ts'))"]),
    ).not.toThrow();
  });
});
