// Order statistics for the bench: medians of repeated runs and percentiles of latency samples.

/** The p-th percentile (0-100) of `values`, nearest-rank; NaN for no values. */
export function percentile(values, p) {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export const median = (values) => percentile(values, 50);

export const round = (value, digits = 1) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);
