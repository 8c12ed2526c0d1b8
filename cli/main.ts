#!/usr/bin/env node
/*
 * The `switchyard-router` command (package.json "bin"): see `switchyard-router --help`.
 *
 * It exits when done, with the command's code, even when the module it loaded started a server (see
 * exit.ts). An error the module raises outside its loading (a server that cannot listen: EADDRINUSE)
 * is reported in one line with code 2, as a loading error is, rather than as Node's stack trace.
 */
import { activeResources, flushed, leftRunningNote } from "./exit.js";
import { firstLine } from "./load.js";
import { run } from "./run.js";

// the stdio handles exist from here on, so they are in the baseline, not taken for the module's
const { stdout, stderr } = process;
const before = activeResources();
let exitCode = 0;
let exiting = false;

// a closed pipe (`| head -1`) is no error of the module's; the flush below still ends
stdout.on("error", () => undefined);
stderr.on("error", () => undefined);

process.on("uncaughtException", (error) => {
  stderr.write(`switchyard-router: uncaught error from the module: ${firstLine(error)}\n`);
  void exit(2);
});

// the process ends before the command finished: the module called process.exit() while loading, or
// the event loop emptied while its top-level await never settled; never a silent 0
process.on("exit", (code) => {
  if (exiting) return;
  stderr.write(
    "switchyard-router: the module ended the process before it finished loading " +
      "(it called process.exit(), or its top-level await never settles)\n",
  );
  if (code === 0) process.exitCode = 2;
});

void run(
  process.argv.slice(2),
  { stdout: (text) => stdout.write(text), stderr: (text) => stderr.write(text) },
  process.cwd(),
).then((code) => {
  const note = leftRunningNote(before, activeResources());
  if (note !== "") stderr.write(note);
  return exit(code);
});

/**
 * Exits with the highest code asked for, once what was written has been flushed. One turn of the
 * event loop first, so that an error the module raised meanwhile (a promise it rejected and left
 * unhandled, a server that cannot listen) is reported and counted rather than cut off.
 */
async function exit(code: number): Promise<void> {
  exitCode = Math.max(exitCode, code);
  if (exiting) return;
  exiting = true;
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([flushed(stdout), flushed(stderr)]);
  process.exit(exitCode);
}
