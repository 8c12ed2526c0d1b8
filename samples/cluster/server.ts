/**
 * The controllers sample on every core: `node dist/samples-cluster/cluster/server.js` (after
 * `tsc -p samples/cluster/tsconfig.json`). The primary process forks one worker per core (`WORKERS`
 * sets how many) and serves nothing itself; each worker serves the whole app on the same port.
 */
import cluster from "node:cluster";
import { startPrimary } from "./primary";
import { startWorker } from "./worker";

if (cluster.isPrimary) startPrimary();
else startWorker();
