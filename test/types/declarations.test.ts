import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

// A user's library that emits .d.ts files must be able to name every type it exports: what a handler
// returns (routeMismatch() included) and routes themselves, alone or in arrays (a non-exported unique
// symbol could not be named there).
test("handlers and routes compile with declaration emit, their types named", () => {
  const root = path.resolve(__dirname, "../..");
  const dir = mkdtempSync(path.join(root, "dist", "dts-"));
  try {
    const file = path.join(dir, "handlers.ts");
    writeFileSync(
      file,
      [
        'import { match, route, routeMismatch } from "switchyard-router";',
        "export const byId = (id: number) => (id > 1 ? { id } : routeMismatch());",
        'export const routes = [route("GET /a/id:Int", (req) => req.vars.id), match("/b", () => "b")];',
        "",
      ].join("\n"),
    );
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    execFileSync(
      process.execPath,
      [
        tsc,
        "--ignoreConfig",
        file,
        "--declaration",
        "--emitDeclarationOnly",
        "--outDir",
        dir,
        "--rootDir",
        root,
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--strict",
        "--types",
        "node",
      ],
      { cwd: root },
    );
    const dts = readFileSync(path.join(dir, path.relative(root, dir), "handlers.d.ts"), "utf8");
    expect(dts).toMatch(/import\("switchyard-router"\)\.RouteMismatch/);
    expect(dts).toMatch(/export declare const routes: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
