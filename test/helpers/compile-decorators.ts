import { transformSync } from "@swc/core";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/*
 * A decorated TypeScript file compiled to CommonJS as a user's toolchain does, and run in this
 * process: how the suites check that legacy and TC39 standard decorators record and answer the same.
 */

const TSC = path.resolve(__dirname, "../../node_modules/typescript/bin/tsc");

/**
 * `source` compiled by the project's tsc without its config and unchecked (`--noCheck`), to ES2022
 * CommonJS: with `legacy`, experimentalDecorators and their metadata; without, TC39 standard decorators.
 */
export function tscToCommonJs(source: string, legacy: boolean): string {
  const out = mkdtempSync(path.join(tmpdir(), "switchyard-decorators-"));
  try {
    const file = path.join(out, "source.ts");
    writeFileSync(file, source);
    const flags = legacy
      ? ["--experimentalDecorators", "--emitDecoratorMetadata"]
      : ["--experimentalDecorators", "false", "--emitDecoratorMetadata", "false"];
    execFileSync(process.execPath, [
      TSC,
      "--ignoreConfig",
      ...flags,
      "--target",
      "es2022",
      "--module",
      "commonjs",
      "--noCheck",
      "--outDir",
      path.join(out, "js"),
      file,
    ]);
    return readFileSync(path.join(out, "js/source.js"), "utf8");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** `source` (named `filename`) compiled by swc to ES2022 CommonJS, with legacy decorators and metadata or a standard version. */
export function swcToCommonJs(source: string, filename: string, version: "legacy" | "2022-03" | "2023-11"): string {
  const transform =
    version === "legacy" ? { legacyDecorator: true, decoratorMetadata: true } : { decoratorVersion: version };
  return transformSync(source, {
    filename,
    jsc: { parser: { syntax: "typescript", decorators: true }, transform, target: "es2022" },
    module: { type: "commonjs" },
  }).code;
}

/** Runs CommonJS `code` in this process, its `require` answering from `imports` alone; returns its exports. */
export function runCommonJs(code: string, imports: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  const load = (id: string): unknown => {
    if (id in imports) return imports[id];
    throw new Error(`unexpected import ${id}`);
  };
  new Function("require", "module", "exports", code)(load, module, module.exports);
  return module.exports;
}
