/*
 * Before a server is timed, it must give every answer of the API (CHECKS in api.js): the right status
 * and, where given, exactly the right JSON. A wrong answer stops the benchmark with the list of them.
 */
const { isDeepStrictEqual } = require("node:util");
const { CHECKS } = require("./api.js");

/** The mismatches of one answer, as a sentence, or null when it is right. */
async function mismatch(port, { method, path, headers, body, status, json }) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await response.text();
  const statusOk = status === "2xx" ? response.status >= 200 && response.status < 300 : response.status === status;
  let bodyOk = true;
  if (json !== undefined) {
    try {
      bodyOk = isDeepStrictEqual(JSON.parse(text), json);
    } catch {
      bodyOk = false;
    }
  }
  return statusOk && bodyOk
    ? null
    : `${method} ${path} ${body ?? ""}: expected ${status} ${json === undefined ? "" : JSON.stringify(json)}, got ${response.status} ${text.slice(0, 200)}`;
}

/** Throws unless the server on `port` answers every check. */
async function checkApi(label, port) {
  const wrong = (await Promise.all(CHECKS.map((c) => mismatch(port, c)))).filter((m) => m !== null);
  if (wrong.length > 0) throw new Error(`${label} answers the API wrongly:\n  ${wrong.join("\n  ")}`);
}

module.exports = { checkApi };
