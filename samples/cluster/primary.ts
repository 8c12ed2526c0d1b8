/** The cluster's primary process: forks the workers, replaces one that dies, stops them all on a signal. */
import cluster, { type Worker } from "node:cluster";
import { availableParallelism } from "node:os";

/** How long the workers get to answer the requests in flight when the cluster stops. */
const STOP_GRACE_MS = 10_000;

/** `WORKERS`, or one per core. */
function workerCount(): number {
  const given = process.env.WORKERS;
  if (given === undefined) return availableParallelism();
  const count = Number(given);
  if (!Number.isInteger(count) || count < 1) throw new Error(`WORKERS must be a whole number ≥ 1, got "${given}"`);
  return count;
}

/**
 * Forks the workers and prints the URL once all of them listen (`worker <pid> listening` for each,
 * replacements too). A worker that dies is replaced, unless it died before it ever listened (it would
 * fail again: the primary stops with an error). SIGTERM or SIGINT stops the cluster: the workers
 * finish the requests in flight, and the primary exits once they all have.
 */
export function startPrimary(): void {
  const count = workerCount();
  // the worker processes not yet exited (cluster.workers also drops the disconnected ones)
  const running = new Set<Worker>();
  const listened = new WeakSet<Worker>();
  let stopping = false;
  let announced = false;

  const fork = (): void => {
    running.add(cluster.fork());
  };

  const stop = (exitCode: number): void => {
    if (stopping) return;
    stopping = true;
    process.exitCode = exitCode;
    // each worker closes its server, answers the requests in flight, and exits; then so does the primary
    for (const worker of running) worker.disconnect();
    // one still serving a long request (an event stream) after the grace period is killed
    setTimeout(() => {
      for (const worker of running) worker.process.kill("SIGKILL");
    }, STOP_GRACE_MS).unref();
  };

  cluster.on("listening", (worker, address) => {
    listened.add(worker);
    console.log(`worker ${worker.process.pid} listening`);
    if (announced || running.size < count || ![...running].every((w) => listened.has(w))) return;
    announced = true;
    console.log(`switchyard cluster of ${count} listening on http://${address.address}:${address.port}/`);
  });

  cluster.on("exit", (worker, code, signal) => {
    running.delete(worker);
    if (stopping) return;
    const how = signal ?? `code ${code}`;
    if (!listened.has(worker)) {
      console.error(`worker ${worker.process.pid} exited (${how}) before it listened: stopping`);
      stop(1);
      return;
    }
    console.log(`worker ${worker.process.pid} exited (${how}): forking another`);
    fork();
  });

  process.on("SIGTERM", () => stop(0));
  process.on("SIGINT", () => stop(0));
  for (let i = 0; i < count; i++) fork();
}
