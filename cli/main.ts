#!/usr/bin/env node
/*
 * The `switchyard-router` command (package.json "bin"): see `switchyard-router --help`.
 */
import { run } from "./run.js";

void run(
  process.argv.slice(2),
  { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) },
  process.cwd(),
).then((code) => {
  process.exitCode = code;
});
