import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, chmodSync, constants } from "node:fs";
import { dirname, join } from "node:path";
import { PACKAGE_ENTRY, type PackageEntry, ROOT, TABLE_MODULE } from "./package-entry";

/*
 * Bun and Deno, started for real as child processes serving the shared table app through the
 * package's Fetch handler (serve-fetch.mjs). A runtime that cannot start rejects: the tests fail.
 */

/** The optional package (test/runtimes/package.json) that holds each runtime's binary on this machine. */
export function runtimePackage(runtime: "bun" | "deno", platform = process.platform, arch = process.arch): string {
  const musl =
    platform === "linux" &&
    !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } })?.header?.glibcVersionRuntime;
  if (runtime === "bun") {
    const cpu = arch === "arm64" ? "aarch64" : arch;
    return `@oven/bun-${platform}-${cpu}${musl ? "-musl" : ""}`;
  }
  return platform === "linux" ? `@deno/linux-${arch}-glibc` : `@deno/${platform}-${arch}`;
}

/**
 * A runtime binary from its optional package. Where npm could not install one for this machine, the
 * runtime tests fail with the package named: a missing runtime is never a silent skip.
 */
function binary(runtime: "bun" | "deno", file: string): string {
  const packageName = runtimePackage(runtime);
  let manifest: string;
  try {
    manifest = require.resolve(`${packageName}/package.json`);
  } catch {
    throw new Error(
      `the ${runtime} tests need the optional package ${packageName} for ${process.platform}-${process.arch}, ` +
        "which is not installed (npm skips it on a machine it does not fit): these tests run on Linux x64, " +
        "macOS and Linux arm64 with glibc",
    );
  }
  const path = join(dirname(manifest), file);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    // npm may unpack the binary without its execute bit (the packages need no install scripts)
    chmodSync(path, 0o755);
  }
  return path;
}

/** Bun's binary from its optional package (a clear error naming the package where it is missing). */
export function bunBinary(): string {
  return binary("bun", "bin/bun");
}

/** How each runtime is started: its binary and the arguments before the script's own. */
const RUNTIMES = {
  bun: () => ({ command: bunBinary(), args: [] as string[] }),
  deno: () => ({
    command: binary("deno", "deno"),
    args: ["run", "--no-prompt", "--no-lock", "--allow-net=127.0.0.1", `--allow-read=${ROOT}`],
  }),
};

/** A runtime serving the table app. */
export interface RunningRuntime {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the runtime and waits for it to exit. */
  stop(): Promise<void>;
}

const SERVE_SCRIPT = join(ROOT, "test/shared/serve-fetch.mjs");

/**
 * Starts `runtime` on serve-fetch.mjs with the package at `entry`; resolves once it listens, rejects if
 * it exits or is silent for `ms`.
 */
export function startRuntime(
  runtime: keyof typeof RUNTIMES,
  entry: PackageEntry = PACKAGE_ENTRY,
  ms = 20_000,
): Promise<RunningRuntime> {
  return startRuntimeScript(runtime, SERVE_SCRIPT, [entry.format, entry.main, entry.fetch, TABLE_MODULE], ms);
}

/**
 * Starts `runtime` on `script` with `scriptArgs`; resolves once the script prints `listening <port>`,
 * rejects if it exits or is silent for `ms`.
 */
export function startRuntimeScript(
  runtime: keyof typeof RUNTIMES,
  script: string,
  scriptArgs: readonly string[],
  ms = 20_000,
): Promise<RunningRuntime> {
  let started: { command: string; args: string[] };
  try {
    started = RUNTIMES[runtime]();
  } catch (error) {
    return Promise.reject(error);
  }
  const { command, args } = started;
  const child = spawn(command, [...args, script, ...scriptArgs], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new Error(`${runtime} (${command}) did not start: ${why}\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail(`no "listening <port>" within ${ms} ms`), ms);
    child.once("error", (error) => fail(error.message));
    child.once("exit", (code, signal) => fail(`it exited (${signal ?? code})`));
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /^listening (\d+)$/m.exec(stdout);
      if (match === null) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve({ url: `http://127.0.0.1:${match[1]}`, stop: () => stop(child) });
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * Serves the test fixture `fixture` (a script in test/fixtures/, given the package's main and Fetch
 * entries) on `runtime` for the enclosing `describe` block; the function returned gives its URL.
 */
export function fixtureServedOn(runtime: keyof typeof RUNTIMES, fixture: string): () => string {
  let running: RunningRuntime | undefined;
  beforeAll(async () => {
    running = await startRuntimeScript(runtime, join(ROOT, "test/fixtures", fixture), [
      PACKAGE_ENTRY.main,
      PACKAGE_ENTRY.fetch,
    ]);
  }, 30_000);
  afterAll(() => running?.stop());
  return () => running!.url;
}
