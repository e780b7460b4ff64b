/**
 * The fine bins of the metric summaries (lib/server/summaries): every stored
 * value of a metric falls in one bin, named by a `key` (a float8). Counts per
 * bin merge by addition (and a removed value subtracts), so the bins of any
 * set of summary cells are the bins of all their values. Which key a value
 * gets (the SQL is lib/server/summaries/sql.ts `binKeySql`, the one place
 * keys are made):
 *
 * - `count` and `boolean` metrics: the value itself (exact);
 * - `unit` metrics with a value in [0, 1]: fixed bins of width UNIT_WIDTH,
 *   key = floor(v * 1000) / 1000, the bin's lower edge;
 * - other values: 0 and integers of at most EXACT_INTEGER in magnitude, and
 *   values beyond 1e±300, are their own key; any other v falls in the
 *   logarithmic bin (γ^(i-1), γ^i] of |v| with γ = (1 + α) / (1 - α), and its
 *   key is sign(v)·2γ^i / (γ + 1), within relative α of every value of the bin
 *   (DDSketch's bins: Masson, Rim and Lee, VLDB 2019).
 *
 * Error bound of a quantile read from the bins (`orderStatistic`): the
 * estimate of the k-th smallest value x_k is the representative of x_k's bin
 * clamped to the exact [min, max], so
 *   exact for count and boolean metrics and for the exact keys above,
 *   |estimate - x_k| <= w / 2 = 0.0005 for unit values in [0, 1],
 *   |estimate - x_k| <= α |x_k| = 0.005 |x_k| for the logarithmic bins.
 * A percentile interpolated between two order statistics (percentile_cont),
 * or the mean of the two middle ones (the median), is within the larger of
 * their two bounds.
 */
import type { MetricKind } from "./catalogue";

export const UNIT_WIDTH = 0.001;
export const ALPHA = 0.005;
export const GAMMA = (1 + ALPHA) / (1 - ALPHA);
export const EXACT_INTEGER = 1024;

export interface Bin {
  key: number;
  n: number;
}

/** Whether a key is a fixed unit bin (its lower edge) rather than a value or a logarithmic bin's representative. */
const unitBin = (kind: MetricKind, key: number) => kind === "unit" && key >= 0 && key <= 1;

/** The value a bin stands for in a quantile: a unit bin's middle, else its key; clamped to the exact range. */
export function representative(kind: MetricKind, key: number, range: { min: number; max: number }): number {
  const v = unitBin(kind, key) ? key + UNIT_WIDTH / 2 : key;
  return Math.min(range.max, Math.max(range.min, v));
}

/**
 * The value a bin is counted at in a histogram: a unit bin's lower edge
 * (the dashboard's unit edges, multiples of 0.1, are edges of these bins,
 * so unit histograms are exact), else its key; clamped to the exact range.
 */
export function histogramValue(kind: MetricKind, key: number, range: { min: number; max: number }): number {
  return Math.min(range.max, Math.max(range.min, key));
}

/** The k-th smallest value (0-based) as the bins know it; bins ascending by key; null outside [0, n). */
export function orderStatistic(kind: MetricKind, bins: readonly Bin[], k: number, range: { min: number; max: number }): number | null {
  let seen = 0;
  for (const b of bins) {
    seen += b.n;
    if (seen > k) return representative(kind, b.key, range);
  }
  return null;
}

/** PostgreSQL's percentile_cont(q) over the values the bins hold (n of them). */
export function percentileCont(kind: MetricKind, bins: readonly Bin[], n: number, q: number, range: { min: number; max: number }): number | null {
  if (n === 0) return null;
  const position = q * (n - 1);
  const lo = Math.floor(position);
  const hi = Math.ceil(position);
  const a = orderStatistic(kind, bins, lo, range);
  const b = orderStatistic(kind, bins, hi, range);
  if (a === null || b === null) return null;
  return hi === lo ? a : a + (position - lo) * (b - a);
}

/** SPEC.md's median (the middle value, or the mean of the two middle ones). */
export function median(kind: MetricKind, bins: readonly Bin[], n: number, range: { min: number; max: number }): number | null {
  if (n === 0) return null;
  const a = orderStatistic(kind, bins, Math.floor((n - 1) / 2), range);
  const b = orderStatistic(kind, bins, Math.floor(n / 2), range);
  return a === null || b === null ? null : a / 2 + b / 2;
}

/** The bound above for an exact value x of a metric of this kind (the allowed |estimate - x|). */
export function errorBound(kind: MetricKind, x: number): number {
  if (kind === "count" || kind === "boolean") return 0;
  if (kind === "unit" && x >= 0 && x <= 1) return UNIT_WIDTH / 2;
  return ALPHA * Math.abs(x);
}
