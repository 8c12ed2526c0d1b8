import { spawn } from "node:child_process";
import { resolve } from "node:path";

/** What a node child process did. */
export interface NodeRun {
  /** The exit code; `null` when a signal ended it. */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

const ROOT = resolve(__dirname, "../..");

/**
 * Runs `script` with this node in a process of its own (cwd: the repository root, so a fixture loads
 * the built package by name) and resolves with how it ended. An unhandled rejection there ends the
 * process with code 1 (`--unhandled-rejections=strict`, given on the command line so NODE_OPTIONS
 * cannot turn it off): jest's sandbox cannot hear that event (its `process` is a copy), a child can.
 * `input` is written to its stdin; a child still running after `timeout` ms is killed.
 */
export function runNode(
  script: string,
  options: { input?: string; env?: Readonly<Record<string, string>>; timeout?: number } = {},
): Promise<NodeRun> {
  const child = spawn(process.execPath, ["--unhandled-rejections=strict", script], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? "");
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout ?? 30_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

/** A child's output of one JSON value per line, parsed. */
export function jsonLines(stdout: string): unknown[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}
