/*
 * One round of one server under load: started, checked against the API, then each row (api.js ROWS)
 * sent by autocannon with 50 connections for `seconds` after one second of warm-up; every answer must
 * have the row's status. The server's resident memory is read after the last row, while it still runs.
 */
const autocannon = require("autocannon");
const { ROWS } = require("./api.js");
const { checkApi } = require("./check.js");
const { rssKiB, start, stop } = require("./server.js");

const CONNECTIONS = 50;
const WARM_UP_SECONDS = 1;

/** req/s of one row against the server on `port`; throws when any answer has another status. */
async function loadRow(label, port, row, seconds) {
  const request = {
    url: `http://127.0.0.1:${port}${row.path}`,
    method: row.method,
    headers: row.headers,
    body: row.body,
    connections: CONNECTIONS,
  };
  await autocannon({ ...request, duration: WARM_UP_SECONDS });
  const result = await autocannon({ ...request, duration: seconds });
  const wrong = Object.entries(result.statusCodeStats).filter(([status]) => Number(status) !== row.status);
  if (wrong.length > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(
      `${label}, ${row.name}: expected only ${row.status}, got ${Object.entries(result.statusCodeStats)
        .map(([s, { count }]) => `${count} × ${s}`)
        .join(", ")}; ${result.errors} connection errors, ${result.timeouts} timeouts`,
    );
  return result.requests.average;
}

/** `{ rows: { [row name]: req/s }, rssKiB }` of one target for one round. */
async function loadOnce(target, seconds) {
  const { child, port } = await start(target);
  try {
    await checkApi(target.label, port);
    const rows = {};
    for (const row of ROWS) rows[row.name] = await loadRow(target.label, port, row, seconds);
    return { rows, rssKiB: rssKiB(child.pid) };
  } finally {
    await stop(child);
  }
}

module.exports = { loadOnce };
