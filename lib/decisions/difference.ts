/**
 * The within-task effect of a decision where GRPO groups give branch
 * coverage: in groups (same task, sampled together) that hold rollouts with
 * the decision and without it, the difference in success rate, pooled over
 * those groups with the Mantel-Haenszel risk difference and its
 * Greenland-Robins (1985) variance, which stays consistent with many small
 * strata (GRPO groups are small). 95% Wald interval with SPEC.md's z,
 * clamped to [-1, 1].
 *
 * Stratum i (a group): a of n1 rollouts with the decision succeeded, c of n0
 * without; N = n1 + n0, b = n1 - a, d = n0 - c.
 *   RD  = sum (a n0 - c n1) / N  /  sum n1 n0 / N
 *   Var = sum (a b n0^3 + c d n1^3) / (n1 n0 N^2)  /  (sum n1 n0 / N)^2
 * With one stratum this is p1 - p0 and p1(1-p1)/n1 + p0(1-p0)/n0.
 */
import { Z_95 } from "../stats/wilson";

export interface Stratum {
  /** Rollouts with the decision (non-null E1) and their successes. */
  readonly n1: number;
  readonly a: number;
  /** Rollouts without it and their successes. */
  readonly n0: number;
  readonly c: number;
}

/** The sums the estimate needs: what SQL adds up over the groups, and JS over strata. */
export interface StratumSums {
  strata: number;
  n1: number;
  n0: number;
  /** sum (a n0 - c n1) / N */
  numerator: number;
  /** sum n1 n0 / N */
  weight: number;
  /** sum (a b n0^3 + c d n1^3) / (n1 n0 N^2) */
  variance: number;
}

export interface WithinGroupDifference {
  method: "mantel_haenszel_risk_difference";
  /** Success rate with the decision minus without it; null without a mixed group. */
  estimate: number | null;
  low: number | null;
  high: number | null;
  /** Groups that hold rollouts with and without the decision (each with E1). */
  groups: number;
  with: number;
  without: number;
}

export const EMPTY_SUMS: StratumSums = { strata: 0, n1: 0, n0: 0, numerator: 0, weight: 0, variance: 0 };

/** Adds one group to the sums; groups without both arms are no stratum. */
export function addStratum(sums: StratumSums, s: Stratum): StratumSums {
  if (s.n1 === 0 || s.n0 === 0) return sums;
  const N = s.n1 + s.n0;
  const b = s.n1 - s.a;
  const d = s.n0 - s.c;
  return {
    strata: sums.strata + 1,
    n1: sums.n1 + s.n1,
    n0: sums.n0 + s.n0,
    numerator: sums.numerator + (s.a * s.n0 - s.c * s.n1) / N,
    weight: sums.weight + (s.n1 * s.n0) / N,
    variance: sums.variance + (s.a * b * s.n0 ** 3 + s.c * d * s.n1 ** 3) / (s.n1 * s.n0 * N * N),
  };
}

export function differenceFromSums(sums: StratumSums, z: number = Z_95): WithinGroupDifference {
  const base = { method: "mantel_haenszel_risk_difference" as const, groups: sums.strata, with: sums.n1, without: sums.n0 };
  if (sums.strata === 0 || sums.weight <= 0) return { ...base, estimate: null, low: null, high: null };
  const estimate = sums.numerator / sums.weight;
  const half = z * Math.sqrt(sums.variance / (sums.weight * sums.weight));
  return { ...base, estimate, low: Math.max(-1, estimate - half), high: Math.min(1, estimate + half) };
}

export function withinGroupDifference(strata: readonly Stratum[], z: number = Z_95): WithinGroupDifference {
  return differenceFromSums(strata.reduce(addStratum, EMPTY_SUMS), z);
}
