/** One worker of the cluster: the controllers sample on the port all workers share. */
import "reflect-metadata"; // tsyringe needs it before it loads
import { createServer } from "node:http";
import { alt, route, toApplication } from "switchyard-router";
import { createApp } from "../controllers/app";

/**
 * Serves the app on PORT (0: one port the primary picks for all workers) and HOST. The primary
 * stops the cluster: a worker ignores the SIGINT a terminal sends its whole process group, and ends
 * when the primary disconnects it (its server closes, the requests in flight are answered) or dies.
 */
export function startWorker(): void {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "127.0.0.1";
  // Each worker has its own copy of everything in memory, the sample's user store too: a user added
  // through one worker is unknown to the others. A real app keeps such state outside the process.
  const app = alt(
    // which process answered: to see the requests spread over the workers
    route("GET /worker", () => ({ pid: process.pid })),
    createApp(),
  );
  process.on("SIGINT", () => undefined);
  process.on("SIGTERM", () => undefined);
  createServer(toApplication(app)).listen(port, host);
}
