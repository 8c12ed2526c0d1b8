/*
 * Timing: warm up, then several runs of back-to-back batches; a run's figure is its best batch (the
 * least disturbed by the other load on a shared machine), the result the median of the runs.
 */

const WARM_UP_MS = 250;
const RUNS = 5;
const RUN_MS = 50;
const MIN_BATCHES = 4;
const BATCH_LOOKUPS = 500;

let sink = 0;

/** One batch: `requests` repeated to about BATCH_LOOKUPS lookups. */
function batchOf(requests) {
  const copies = Math.max(1, Math.ceil(BATCH_LOOKUPS / requests.length));
  const batch = [];
  for (let i = 0; i < copies; i++) batch.push(...requests);
  return batch;
}

async function timeBatch(lookup, batch, isAsync) {
  const start = process.hrtime.bigint();
  if (isAsync) {
    for (let i = 0; i < batch.length; i++) if ((await lookup(batch[i][0], batch[i][1])) !== null) sink++;
  } else {
    for (let i = 0; i < batch.length; i++) if (lookup(batch[i][0], batch[i][1]) !== null) sink++;
  }
  return Number(process.hrtime.bigint() - start) / batch.length;
}

/**
 * Median over runs of the best batch, in ns per lookup. `makeBatch()` gives the `[method, path]`
 * pairs of one batch (fresh strings each time when the list asks for them); it is not timed.
 */
async function measure(lookup, makeBatch, isAsync) {
  const warmUntil = Date.now() + WARM_UP_MS;
  while (Date.now() < warmUntil) await timeBatch(lookup, makeBatch(), isAsync);
  const bests = [];
  for (let run = 0; run < RUNS; run++) {
    let best = Infinity;
    const until = Date.now() + RUN_MS;
    for (let b = 0; b < MIN_BATCHES || Date.now() < until; b++)
      best = Math.min(best, await timeBatch(lookup, makeBatch(), isAsync));
    bests.push(best);
  }
  bests.sort((a, b) => a - b);
  return bests[bests.length >> 1];
}

module.exports = { measure, batchOf, sink: () => sink };
