import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/typecheck";

/** One tsc diagnostic with its whole text: the first line and the indented lines that elaborate it. */
export interface FullDiagnostic {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  /** Every line of the diagnostic, joined with "\n" (indentation removed). */
  readonly text: string;
}

/**
 * Type-checks `files` as test/helpers/typecheck.ts does (a user's ES-module folder importing the package
 * by name, the project's options), with `options` over the project's compiler options (say
 * `{ experimentalDecorators: false }`), and returns each diagnostic whole: the messages these tests
 * look for are in the elaboration of a decorator's error, on the lines after its first.
 */
export function typecheckFull(
  files: Readonly<Record<string, string>>,
  options: Readonly<Record<string, unknown>> = {},
): FullDiagnostic[] {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", "typecheck-full-"));
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
    const own = JSON.parse(readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    const paths = Object.fromEntries(
      Object.entries(own.compilerOptions.paths).map(([name, targets]) => [
        name,
        targets.map((target) => path.posix.join("../..", target)),
      ]),
    );
    const config = {
      extends: "../../tsconfig.json",
      compilerOptions: { noEmit: true, rootDir: "../..", paths, ...options },
      include: ["./*.ts"],
      exclude: [],
    };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const run = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir, "--pretty", "false"],
      { cwd: ROOT, encoding: "utf8" },
    );
    if (run.error !== undefined) throw run.error;
    const diagnostics: FullDiagnostic[] = [];
    let current: { file: string; line: number; code: string; lines: string[] } | undefined;
    const flush = () => {
      if (current !== undefined) diagnostics.push({ ...current, text: current.lines.join("\n") });
    };
    for (const line of run.stdout.split("\n")) {
      const head = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
      if (head !== null) {
        flush();
        current = {
          file: path.relative(dir, path.resolve(ROOT, head[1]!)),
          line: Number(head[2]),
          code: head[3]!,
          lines: [head[4]!],
        };
      } else if (/^\s+\S/.test(line) && current !== undefined) {
        current.lines.push(line.trim());
      } else if (line.trim() !== "") {
        throw new Error(`unexpected tsc output: ${line}\n${run.stdout}`);
      }
    }
    flush();
    return diagnostics;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
