import { wilsonInterval, Z_95 } from "@/lib/stats/wilson";
import type { EditIntent } from "./edit";

/**
 * Measured effects of interventions (SPEC.md section 11, docs/replay.md
 * "Effects"): outcomes of runs, the effect of an edit with its interval,
 * and the agreement of a credit method with the measured effects.
 */

/** The outcome of a run: its E1 when known, else its R_total under the chosen preset. */
export function outcomeOf(e1: 0 | 1 | null, rTotal: number): { value: number; binary: boolean } {
  return e1 === null ? { value: rTotal, binary: false } : { value: e1, binary: true };
}

export interface MeanInterval {
  mean: number | null;
  /** Wilson 95% interval, for a binary outcome only */
  low: number | null;
  high: number | null;
  n: number;
}

export interface Effect {
  /** mean(fork outcomes) - mean(baseline outcomes); null when either side has no run */
  effect: number | null;
  /** Newcombe hybrid score 95% interval of the difference, for binary outcomes only */
  low: number | null;
  high: number | null;
  forks: MeanInterval;
  baseline: MeanInterval;
  binary: boolean;
}

const meanOf = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

function meanInterval(xs: readonly number[], binary: boolean): MeanInterval {
  const mean = meanOf(xs);
  if (!binary || xs.length === 0) return { mean, low: null, high: null, n: xs.length };
  const w = wilsonInterval(xs.reduce((a, b) => a + b, 0), xs.length, Z_95)!;
  return { mean, low: w.low, high: w.high, n: xs.length };
}

/**
 * Newcombe's hybrid score interval (his method 10) for p1 - p2 from the two
 * Wilson intervals: [d - sqrt((p1-l1)^2 + (u2-p2)^2), d + sqrt((u1-p1)^2 + (p2-l2)^2)].
 */
export function newcombeInterval(x1: number, n1: number, x2: number, n2: number, z: number = Z_95): { diff: number; low: number; high: number } | null {
  const a = wilsonInterval(x1, n1, z);
  const b = wilsonInterval(x2, n2, z);
  if (a === null || b === null) return null;
  const diff = a.rate - b.rate;
  return {
    diff,
    low: diff - Math.sqrt((a.rate - a.low) ** 2 + (b.high - b.rate) ** 2),
    high: diff + Math.sqrt((a.high - a.rate) ** 2 + (b.rate - b.low) ** 2),
  };
}

/**
 * The effect of an edit: fork outcomes against baseline outcomes. Binary
 * when every outcome on both sides is an E1 (0/1): then each mean has its
 * Wilson interval and the effect the Newcombe interval; otherwise (some
 * outcome is an R_total) the intervals are null.
 */
export function measuredEffect(forks: readonly { value: number; binary: boolean }[], baseline: readonly { value: number; binary: boolean }[]): Effect {
  const binary = forks.length > 0 && baseline.length > 0 && [...forks, ...baseline].every((o) => o.binary);
  const f = forks.map((o) => o.value);
  const b = baseline.map((o) => o.value);
  const fm = meanOf(f);
  const bm = meanOf(b);
  const effect = fm === null || bm === null ? null : fm - bm;
  const interval = binary ? newcombeInterval(f.reduce((s, x) => s + x, 0), f.length, b.reduce((s, x) => s + x, 0), b.length) : null;
  return { effect, low: interval?.low ?? null, high: interval?.high ?? null, forks: meanInterval(f, binary), baseline: meanInterval(b, binary), binary };
}

/** Ranks 1..n, ties given the average of the ranks they span. */
export function averageRanks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const ranks = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = rank;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rank correlation (Pearson on average ranks); null under 3 pairs or when either side is constant. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length || xs.length < 3) return null;
  const rx = averageRanks(xs);
  const ry = averageRanks(ys);
  const mx = meanOf(rx)!;
  const my = meanOf(ry)!;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i]! - mx) * (ry[i]! - my);
    sxx += (rx[i]! - mx) ** 2;
    syy += (ry[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

/** An effect as it enters agreement: reversed for an edit that removes or neutralises the call. */
export const signedEffect = (effect: number, intent: EditIntent) => (intent === "remove" || intent === "neutralise" ? -effect : effect);

/** Agreement of a credit method with the measured calls of one trace: Spearman of call credit against signed effect. */
export function agreement(calls: readonly { credit: number; effect: number }[]): number | null {
  return spearman(calls.map((c) => c.credit), calls.map((c) => c.effect));
}

/**
 * Whether replay confirms a suspect (SPEC.md section 11): its correction
 * turns a failed run into a successful one in a majority of at least 3
 * samples. Null when it cannot say: outcomes not binary, the baseline not a
 * failure (mean E1 0), or fewer than 3 samples (the one-sample case of a
 * deterministic model is not recognised here).
 */
export function confirmedByReplay(e: Effect): boolean | null {
  if (!e.binary || e.baseline.mean !== 0 || e.forks.n < 3 || e.forks.mean === null) return null;
  return e.forks.mean > 0.5;
}
