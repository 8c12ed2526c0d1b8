/*
 * One round of one server under load: started, checked against the API, then each row (api.js ROWS)
 * sent by autocannon with 50 connections for `seconds` after one second of warm-up; every answer must
 * have the row's status. The server's CPU time is read around each row's timed load (CPU per request
 * swings less than req/s on a shared machine, where another tenant's load takes turns from both
 * the server and autocannon); its resident memory after the last row, while it still runs.
 */
const autocannon = require("autocannon");
const { ROWS } = require("./api.js");
const { checkApi } = require("./check.js");
const { cpuMs, rssKiB, start, stop } = require("./server.js");

const CONNECTIONS = 50;
const WARM_UP_SECONDS = 1;

/**
 * `{ rate, cpuUs }` of one row against the server `child` on `port`: req/s, and µs of the server's CPU
 * per request answered (null where unknown); throws when any answer has another status.
 */
async function loadRow(label, child, port, row, seconds) {
  const request = {
    url: `http://127.0.0.1:${port}${row.path}`,
    method: row.method,
    headers: row.headers,
    body: row.body,
    connections: CONNECTIONS,
  };
  await autocannon({ ...request, duration: WARM_UP_SECONDS });
  const cpuBefore = cpuMs(child.pid);
  const result = await autocannon({ ...request, duration: seconds });
  const cpuAfter = cpuMs(child.pid);
  const wrong = Object.entries(result.statusCodeStats).filter(([status]) => Number(status) !== row.status);
  if (wrong.length > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(
      `${label}, ${row.name}: expected only ${row.status}, got ${Object.entries(result.statusCodeStats)
        .map(([s, { count }]) => `${count} × ${s}`)
        .join(", ")}; ${result.errors} connection errors, ${result.timeouts} timeouts`,
    );
  const cpuUs =
    cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { rate: result.requests.average, cpuUs };
}

/** `{ rows: { [row name]: req/s }, cpuUs: { [row name]: µs per request | null }, rssKiB }` of one target for one round. */
async function loadOnce(target, seconds) {
  const { child, port } = await start(target);
  try {
    await checkApi(target.label, port);
    const rows = {};
    const cpuUs = {};
    for (const row of ROWS) {
      const { rate, cpuUs: cpu } = await loadRow(target.label, child, port, row, seconds);
      rows[row.name] = rate;
      cpuUs[row.name] = cpu;
    }
    return { rows, cpuUs, rssKiB: rssKiB(child.pid) };
  } finally {
    await stop(child);
  }
}

module.exports = { loadOnce };
