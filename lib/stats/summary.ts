/**
 * Mean and median for aggregates (`GET /api/metrics`): over non-null values
 * only, null when there are none. Nulls are gaps, never zeros.
 */

/** Arithmetic mean, null for no values. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Median (mean of the two middle values for an even count), null for no values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface MeanMedian {
  mean: number | null;
  median: number | null;
}

/** Mean and median of the non-null values. */
export function meanMedian(values: Iterable<number | null>): MeanMedian {
  const present: number[] = [];
  for (const v of values) if (v !== null) present.push(v);
  return { mean: mean(present), median: median(present) };
}
