import { execFileSync } from "node:child_process";
import { accessSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

// dist/ is built by the jest global setup; these load it by package name, as a user would.
const root = path.resolve(__dirname, "..");
/** An `exports` condition set: types, Node's bundle (`node`), the per-file build (`default`). */
interface Conditions {
  readonly types: string;
  readonly node: string;
  readonly default: string;
}
const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  readonly name: string;
  readonly exports: Readonly<Record<string, Readonly<Record<string, Conditions>>>>;
};
const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });

describe("package entry points", () => {
  test("require('switchyard-router') works by name (self-reference through exports)", () => {
    const out = run([
      "-e",
      "const s = require('switchyard-router'); console.log(typeof s.route, typeof s.toApplication, s.Int.name)",
    ]);
    expect(out.trim()).toBe("function function Int");
  });

  test("import { … } from 'switchyard-router' works from ESM, and Node loads the ES module bundle", () => {
    const out = run([
      "--input-type=module",
      "-e",
      "import { route, alt, Day } from 'switchyard-router'; console.log(typeof route, typeof alt, String(Day.of(2024, 1, 5)), import.meta.resolve('switchyard-router'))",
    ]);
    expect(out.trim()).toBe(
      `function function 2024-01-05 ${pathToFileURL(path.join(root, "dist/bundle/esm/index.js")).href}`,
    );
  });

  test("require('switchyard-router') loads the CommonJS bundle", () => {
    expect(run(["-e", "console.log(require.resolve('switchyard-router'))"]).trim()).toBe(
      path.join(root, "dist/bundle/cjs/index.js"),
    );
  });

  // esbuild's CommonJS exports read the module's values by key through one shared getter, a
  // megamorphic load on every call from chunk to chunk; scripts/bundle.js exports the values' own getters
  test("every export of a CommonJS bundle is read through a getter of its own, not one that reads by key", () => {
    const out = run([
      "-e",
      `const fs = require("node:fs");
       const dir = ${JSON.stringify(path.join(root, "dist/bundle/cjs"))};
       const byKey = [];
       let exports = 0;
       for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".js"))) {
         const m = require(dir + "/" + file);
         for (const name of Object.keys(m)) {
           exports++;
           const get = Object.getOwnPropertyDescriptor(m, name).get;
           if (get === undefined || /\\[/.test(String(get))) byKey.push(file + ": " + name + " " + String(get));
         }
       }
       console.log(JSON.stringify({ exports, byKey }));`,
    ]);
    const { exports, byKey } = JSON.parse(out) as { exports: number; byKey: string[] };
    expect(exports).toBeGreaterThan(200);
    expect(byKey).toEqual([]);
  });

  test("the build ships type declarations", () => {
    for (const target of Object.values(manifest.exports).flatMap((entry) => Object.values(entry)))
      if (typeof target === "object") expect(() => accessSync(path.join(root, target.types))).not.toThrow();
  });

  // what a cold start pays for is loading files: Node gets the bundles, a bundler the per-file build
  test.each(Object.keys(manifest.exports).filter((subpath) => subpath !== "./package.json"))(
    "%s: the runtime bundles export what the per-file build exports, and a bundler for the edge reads the per-file build",
    async (subpath) => {
      const { import: esm, default: cjs } = manifest.exports[subpath] as Record<"import" | "default", Conditions>;
      // in a child: jest's module system cannot import ES modules; importing a CommonJS file adds
      // `default` (its module.exports) and tsc's `__esModule` mark, which no entry exports of its own
      const names = (file: string) =>
        run([
          "--input-type=module",
          "-e",
          `console.log(Object.keys(await import(${JSON.stringify(pathToFileURL(path.join(root, file)).href)})).filter((n) => n !== 'default' && n !== '__esModule').sort().join())`,
        ]).trim();
      const perFile = names(esm.default);
      expect(perFile).not.toBe("");
      expect(names(esm.node)).toBe(perFile);
      expect(names(cjs.node)).toBe(perFile);
      expect(names(cjs.default)).toBe(perFile);
      const specifier = subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
      const { metafile } = await build({
        stdin: { contents: `export * from "${specifier}";`, resolveDir: root },
        bundle: true,
        write: false,
        metafile: true,
        format: "esm",
        platform: "neutral",
        external: ["class-validator", "class-transformer", "reflect-metadata", "multipasta", "node:*"],
        // the package as a user's bundler sees it, not through the repository's tsconfig paths to src/
        tsconfigRaw: {},
        logLevel: "silent",
      });
      const inputs = Object.keys(metafile.inputs).filter((file) => file.startsWith("dist/"));
      expect(inputs).toContain(esm.default.slice(2));
      expect(inputs.filter((file) => !file.startsWith("dist/esm/"))).toEqual([]);
    },
  );
});
