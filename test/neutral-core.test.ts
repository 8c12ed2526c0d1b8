import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/*
 * The core is runtime-neutral (issue 8): loading the package's main entry loads no Node builtin, and no
 * file under src/ outside the Node-only adapters and CLI imports one or uses Buffer.
 */

const root = path.resolve(__dirname, "..");

/**
 * Runs `load` (a statement that loads something) in a fresh Node process and prints the Node builtins
 * it loaded: public builtin module names that `process.moduleLoadList` gained, and every builtin asked
 * of the CommonJS loader, with or without the `node:` prefix. Both are recorded because either alone
 * could miss a builtin that was already loaded during Node's own start-up.
 */
function builtinsLoadedBy(load: string, kind: "cjs" | "esm"): string[] {
  const probe = `
    const Module = require("node:module");
    const builtins = new Set(Module.builtinModules);
    const asked = new Set();
    const originalLoad = Module._load;
    Module._load = function (request, ...rest) {
      const name = request.startsWith("node:") ? request.slice(5) : request;
      if (builtins.has(name)) asked.add(name);
      return originalLoad.call(this, request, ...rest);
    };
    let before = new Set(process.moduleLoadList);
    const snapshot = () => { before = new Set(process.moduleLoadList); };
    const report = () => {
      for (const entry of process.moduleLoadList) {
        if (before.has(entry)) continue;
        const name = entry.replace(/^NativeModule /, "");
        if (builtins.has(name)) asked.add(name);
      }
      process.stdout.write(JSON.stringify([...asked].sort()));
    };
  `;
  // the ES module loader loads builtins of its own (file reading) on first use: warm it up on an empty
  // module file first
  const script =
    kind === "cjs"
      ? `${probe}\n${load};\nreport();`
      : `${probe}\nimport(${JSON.stringify(path.join(root, "test/fixtures/empty-module.mjs"))}).then(() => { asked.clear(); snapshot(); return import(${JSON.stringify(load)}); }).then(() => report());`;
  const out = execFileSync(process.execPath, ["-e", script], { cwd: root, encoding: "utf8" });
  return JSON.parse(out) as string[];
}

describe("the core loads no Node builtin", () => {
  test("require('switchyard-router') (CommonJS) loads none", () => {
    expect(builtinsLoadedBy(`require("switchyard-router")`, "cjs")).toEqual([]);
  });

  test("import('switchyard-router') (ES module) loads none", () => {
    expect(builtinsLoadedBy("switchyard-router", "esm")).toEqual([]);
  });

  test("the probe does see builtins: loading one is reported (the check cannot pass by accident)", () => {
    expect(builtinsLoadedBy(`require("node:zlib")`, "cjs")).toContain("zlib");
    expect(builtinsLoadedBy("node:zlib", "esm")).toContain("zlib");
  });
});

/** Files under src/ that may use Node: the Node-only adapters (the command-line tool lives in cli/). */
const NODE_ONLY = [/^src\/adapters\/(node|node-input|node-write|express|koa)\.ts$/];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const file = `${dir}/${name}`;
    return statSync(path.join(root, file)).isDirectory() ? sourceFiles(file) : file.endsWith(".ts") ? [file] : [];
  });
}

describe("no file of the core imports node:* or uses Buffer", () => {
  const core = sourceFiles("src").filter((file) => !NODE_ONLY.some((allowed) => allowed.test(file)));

  test("the list of core files is not empty", () => {
    expect(core.length).toBeGreaterThan(20);
  });

  test.each(core)("%s", (file) => {
    const text = readFileSync(path.join(root, file), "utf8");
    expect(text).not.toMatch(/from\s+["']node:|require\(\s*["']node:|import\(\s*["']node:/);
    expect(text).not.toMatch(/\bBuffer\./);
    expect(text).not.toMatch(/\bBuffer\b(?!Source)/);
  });

  test("the Node-only files are only imported by Node-only files (or their re-export in index.ts)", () => {
    for (const file of core) {
      if (file === "src/index.ts") continue;
      const text = readFileSync(path.join(root, file), "utf8");
      expect({
        file,
        imports: /from\s+["'](?:\.\/|[^"']*\/adapters\/)(node|node-input|node-write|express|koa)\.js["']/.test(text),
      }).toEqual({ file, imports: false });
    }
  });
});
