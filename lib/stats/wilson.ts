/**
 * Wilson score interval for a success rate (SPEC.md section 4, E1
 * aggregates): unlike the normal approximation it stays inside [0, 1] and
 * behaves at 0 and n successes.
 */

/** The two-sided 95% normal quantile, exactly as SPEC.md fixes it. */
export const Z_95 = 1.959963984540054;

export interface WilsonInterval {
  readonly rate: number;
  readonly low: number;
  readonly high: number;
  readonly n: number;
}

/** The Wilson interval of `successes` out of `n` trials; null when n is 0. */
export function wilsonInterval(successes: number, n: number, z: number = Z_95): WilsonInterval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // Clamped only against rounding: mathematically the interval lies in [0, 1].
  return { rate: p, low: Math.max(0, center - half), high: Math.min(1, center + half), n };
}

export interface SuccessRate {
  rate: number | null;
  low: number | null;
  high: number | null;
  /** Traces with a non-null E1. */
  n: number;
}

/** The `e1` block of `GET /api/metrics`: rate and Wilson interval over the non-null E1 values. */
export function successRate(e1s: Iterable<0 | 1 | null>): SuccessRate {
  let n = 0;
  let successes = 0;
  for (const e1 of e1s) {
    if (e1 === null) continue;
    n++;
    successes += e1;
  }
  const w = wilsonInterval(successes, n);
  return w ? { rate: w.rate, low: w.low, high: w.high, n } : { rate: null, low: null, high: null, n: 0 };
}
