/*
 * Starting and stopping one benchmark server: spawned, its port read from its first line of output;
 * its resident memory read from /proc while it runs.
 */
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const { commandOf } = require("./targets.js");

/** Starts a target; resolves when it has printed its port. `spawnedAt` is `performance.now()` at spawn. */
function start(target) {
  const { command, args } = commandOf(target);
  const spawnedAt = performance.now();
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (chunk) => {
      out += chunk;
      if (!out.includes("\n")) return;
      child.stdout.off("data", onData);
      resolve({ child, port: Number(out.trim()), spawnedAt });
    };
    child.stdout.on("data", onData);
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${target.label} exited (${code}) before printing its port`)));
  });
}

/** Stops a server and waits for it to be gone, so the next one has the machine to itself. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill();
  });
}

/** The resident set of a running process in KiB (VmRSS), or null where /proc has none (not Linux). */
function rssKiB(pid) {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return line === undefined ? null : Number(line.split(/\s+/)[1]);
  } catch {
    return null;
  }
}

/**
 * Milliseconds on a CPU of every live thread of process `pid` (the first field of each
 * /proc/<pid>/task/<tid>/schedstat, in ns; /proc/<pid>/stat's times tick in 10 ms, too coarse for a
 * cold start), or null where there is no such file (not Linux). A thread that has already exited is not
 * counted.
 */
function cpuMs(pid) {
  try {
    let ns = 0;
    for (const task of fs.readdirSync(`/proc/${pid}/task`))
      ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    return null;
  }
}

module.exports = { start, stop, rssKiB, cpuMs };
