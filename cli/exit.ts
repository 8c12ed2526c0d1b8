/*
 * How the command ends. The module it loads may start a server or a timer (an app module that calls
 * `listen()`), and Node would then run for ever once the command is done: a `--check` step in CI would
 * never end. So once the output is written (flushed, not just queued: a pipe may be asynchronous) the
 * process exits with the command's code, and a note on stderr says what the module left running,
 * from what Node reports as active (`process.getActiveResourcesInfo()`) beyond what it had before.
 */

/** What keeps the event loop alive now, by Node's resource names (`TCPServerWrap`, `Timeout`, …). */
export function activeResources(): string[] {
  return process.getActiveResourcesInfo();
}

/**
 * The note for what is active in `after` and was not in `before` (counted, not just named: a second
 * `PipeWrap` is a new one), or `""` when nothing was left running.
 */
export function leftRunningNote(before: readonly string[], after: readonly string[]): string {
  const remaining = [...before];
  const added: string[] = [];
  for (const resource of after) {
    const i = remaining.indexOf(resource);
    if (i === -1) added.push(resource);
    else remaining.splice(i, 1);
  }
  const parts = [...new Set(added.map(describe).filter((d) => d !== ""))];
  if (parts.length === 0) return "";
  const said = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `note: the module ${said}; exiting anyway\n`;
}

const DESCRIBED: Readonly<Record<string, string>> = {
  TCPServerWrap: "started a server",
  TCPSocketWrap: "left a connection open",
  PipeWrap: "left a pipe open",
  UDPWrap: "left a UDP socket open",
  Timeout: "left a timer running",
  ProcessWrap: "started a child process",
  FSEventWrap: "left a file watcher running",
  StatWatcher: "left a file watcher running",
};

/**
 * What one resource says about the module; `""` for a request in flight (reading a file, a DNS
 * lookup, a write, closing the module's file after the import): it ends by itself.
 */
function describe(resource: string): string {
  if (/(Req|ReqWrap|Callback)$|^(Immediate|WriteWrap|ShutdownWrap|ConnectWrap)$/.test(resource)) return "";
  return DESCRIBED[resource] ?? `left a ${resource} active`;
}

/** Resolves once everything written to `stream` so far has been handed to the system (or failed). */
export function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || !stream.writable) resolve();
    else stream.write("", () => resolve());
  });
}
