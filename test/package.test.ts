import { execFileSync } from "node:child_process";
import path from "node:path";

// dist/ is built by the jest global setup; these load it by package name, as a user would.
const root = path.resolve(__dirname, "..");
const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });

describe("package entry points", () => {
  test("require('switchyard-router') works by name (self-reference through exports)", () => {
    const out = run(["-e", "const s = require('switchyard-router'); console.log(typeof s.route, typeof s.toApplication, s.Int.name)"]);
    expect(out.trim()).toBe("function function Int");
  });

  test("import { … } from 'switchyard-router' works from ESM", () => {
    const out = run(["--input-type=module", "-e", "import { route, alt, Day } from 'switchyard-router'; console.log(typeof route, typeof alt, String(Day.of(2024, 1, 5)))"]);
    expect(out.trim()).toBe("function function 2024-01-05");
  });

  test("the build ships type declarations", () => {
    expect(() => run(["-e", "require('node:fs').accessSync(require.resolve('switchyard-router').replace(/\\.js$/, '.d.ts'))"])).not.toThrow();
  });
});
