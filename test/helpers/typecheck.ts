import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The repository root. */
export const ROOT = path.resolve(__dirname, "../..");

/** One diagnostic of a tsc run: the file (relative to the scratch dir), its 1-based line, the message. */
export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly code: string;
  /** The diagnostic's first line. */
  readonly message: string;
  /** Every line of it, joined with "\n" (indentation removed): a decorator's error elaborates below. */
  readonly text: string;
}

/**
 * Type-checks `files` (name → source) with the project's tsc and compiler options, importing the
 * package as a user does (`switchyard-router`, resolved to the sources through tsconfig `paths`), in a
 * scratch folder under `dist/` that is removed afterwards. The folder is an ES-module package (as a new
 * project usually is), so relative imports name their `.js` file and top-level `await` is allowed.
 * `options` go over the project's compiler options (say `{ experimentalDecorators: false }`).
 * Returns every diagnostic; throws when tsc's exit status disagrees with them (a failing run that
 * reported no error of its own, or a clean run that did), so a crash never reads as "it compiles".
 */
export function typecheck(
  files: Readonly<Record<string, string>>,
  options: Readonly<Record<string, unknown>> = {},
): Diagnostic[] {
  const run = runTsc(files, options);
  const diagnostics = parseDiagnostics(run.stdout, run.dir);
  if ((run.status === 0) !== (diagnostics.length === 0))
    throw new Error(
      `tsc exited with ${run.status} and reported ${diagnostics.length} errors:\n${run.stdout}${run.stderr}`,
    );
  return diagnostics;
}

/** What one tsc run gave: its exit status (or the signal that killed it), its output, the scratch dir it checked (removed by now). */
export interface TscRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly dir: string;
}

/**
 * Runs the project's tsc on `files` in a scratch folder under `dist/` (as `typecheck` describes; `prefix`
 * names the folder), removed afterwards; returns the run as it was, without judging it.
 */
export function runTsc(
  files: Readonly<Record<string, string>>,
  options: Readonly<Record<string, unknown>> = {},
  prefix = "typecheck-",
): TscRun {
  mkdirSync(path.join(ROOT, "dist"), { recursive: true });
  const dir = mkdtempSync(path.join(ROOT, "dist", prefix));
  try {
    for (const [name, source] of Object.entries(files)) writeFileSync(path.join(dir, name), source);
    const config = {
      extends: "../../tsconfig.json",
      compilerOptions: { noEmit: true, rootDir: "../..", paths: packagePaths(), ...options },
      include: ["./*.ts"],
      exclude: [],
    };
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
    const run = spawnSync(
      process.execPath,
      [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir, "--pretty", "false"],
      {
        cwd: ROOT,
        encoding: "utf8",
      },
    );
    if (run.error !== undefined) throw run.error;
    return { status: run.status, signal: run.signal, stdout: run.stdout, stderr: run.stderr, dir };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The project's `paths` (each entry point of the package → its source), seen from a folder two levels down. */
function packagePaths(): Record<string, string[]> {
  const own = (
    JSON.parse(readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as {
      compilerOptions: { paths: Record<string, string[]> };
    }
  ).compilerOptions.paths;
  return Object.fromEntries(
    Object.entries(own).map(([name, targets]) => [name, targets.map((target) => path.posix.join("../..", target))]),
  );
}

function parseDiagnostics(output: string, dir: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  let current: { file: string; line: number; code: string; lines: string[] } | undefined;
  const flush = () => {
    if (current !== undefined)
      diagnostics.push({ ...current, message: current.lines[0]!, text: current.lines.join("\n") });
  };
  // a diagnostic starts `file(line,col): error TS1234: message`; its elaboration is indented below
  for (const line of output.split("\n")) {
    const head = /^(.+?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(line);
    if (head !== null) {
      flush();
      current = {
        file: path.relative(dir, path.resolve(ROOT, head[1]!)),
        line: Number(head[2]),
        code: head[3]!,
        lines: [head[4]!],
      };
    } else if (/^\s+\S/.test(line) && current !== undefined) current.lines.push(line.trim());
    else if (line.trim() !== "") throw new Error(`unexpected tsc output: ${line}\n${output}`);
  }
  flush();
  return diagnostics;
}

const MARKER = "// expect: ";

/**
 * Asserts `diagnostics` against the `// expect: text` markers of `source`, checked as `file`: there are
 * `count` markers (so a marker lost in an edit fails), each marked line has a diagnostic containing
 * its text, and no unmarked line of `file` has any. Other files' diagnostics are not looked at: see
 * `expectClean`.
 */
export function expectMarkedErrors(
  diagnostics: readonly Diagnostic[],
  source: string,
  count: number,
  file = "bad.ts",
): void {
  const wanted = new Map<number, string>();
  source.split("\n").forEach((line, i) => {
    const at = line.indexOf(MARKER);
    if (at !== -1) wanted.set(i + 1, line.slice(at + MARKER.length));
  });
  expect(wanted.size).toBe(count);
  const bad = diagnostics.filter((d) => d.file === file);
  for (const [line, text] of wanted) {
    const here = bad.filter((d) => d.line === line).map((d) => d.text);
    expect({ line, text, found: here.some((t) => t.includes(text)), here }).toEqual({
      line,
      text,
      found: true,
      here: expect.anything(),
    });
  }
  expect(bad.filter((d) => !wanted.has(d.line)).map((d) => `${d.line}: ${d.text}`)).toEqual([]);
}

/** Asserts that no file but `except` (the one with the marked errors) has a diagnostic. */
export function expectClean(diagnostics: readonly Diagnostic[], except = "bad.ts"): void {
  expect(diagnostics.filter((d) => d.file !== except).map((d) => `${d.file}:${d.line}: ${d.text}`)).toEqual([]);
}
