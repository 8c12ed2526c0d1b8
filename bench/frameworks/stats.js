/*
 * The statistics every benchmark table uses: medians over rounds.
 */

/** The median of a non-empty list of numbers. */
function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median over rounds of `values[i] / base[i]` (the rounds where both were measured), or null. */
function medianRatio(values, base) {
  const ratios = values.flatMap((v, i) => (v === undefined || base[i] === undefined ? [] : [v / base[i]]));
  return ratios.length === 0 ? null : median(ratios);
}

module.exports = { median, medianRatio };
