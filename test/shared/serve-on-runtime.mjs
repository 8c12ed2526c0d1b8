// Serves a Fetch handler on Bun or Deno, on 127.0.0.1 and a port the system picks, printing
// `listening <port>` once it listens; the process exits when its standard input closes, so a test run
// that dies cannot leave it behind. Used by the scripts the runtime tests start (serve-fetch.mjs,
// fixtures/fetch-body-serve.mjs).

/** Serves `handler`; `script` names the caller in the error thrown on any other runtime. */
export function serveOnRuntime(handler, script) {
  const announce = (port) => console.log(`listening ${port}`);
  if (typeof Deno !== "undefined") {
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => announce(port) }, handler);
  } else if (typeof Bun !== "undefined") {
    announce(Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: handler }).port);
  } else {
    throw new Error(`${script} runs on Bun or Deno`);
  }
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
}
