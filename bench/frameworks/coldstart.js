/*
 * Cold start of one server: from spawning the process to the first 200 answer to GET /users/7, in ms,
 * and the CPU time the server had used by then (all its threads). The wall time swings with the load
 * on a shared machine (±50 % between rounds seen on 2 busy cores); the CPU time far less (±5 %), so it
 * is the figure to compare two builds by.
 * The request goes through node:http (loaded already), not fetch, whose first call in this process
 * would load undici and count its start-up against whichever server came first.
 */
const http = require("node:http");
const { cpuMs, start, stop } = require("./server.js");

const FIRST_REQUEST = "/users/7";

/** The status of GET `path`, once its whole body has arrived. */
function get(port, path) {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path, agent: false }, (response) => {
        response.resume();
        response.once("end", () => resolve(response.statusCode));
      })
      .once("error", reject);
  });
}

/** `{ ms, cpuMs }` from spawn to the first 200 (`cpuMs` null where unknown); throws on any other answer. */
async function coldStartOnce(target) {
  const { child, port, spawnedAt } = await start(target);
  try {
    const status = await get(port, FIRST_REQUEST);
    const ms = performance.now() - spawnedAt;
    const cpu = cpuMs(child.pid);
    if (status !== 200) throw new Error(`${target.label}: GET ${FIRST_REQUEST} answered ${status}`);
    return { ms, cpuMs: cpu };
  } finally {
    await stop(child);
  }
}

module.exports = { coldStartOnce };
