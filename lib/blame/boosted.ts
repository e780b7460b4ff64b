/**
 * `learned_stumps`: gradient-boosted decision stumps under the same
 * conditional logit as `learned_events` (softmax over the events of a
 * trace), on its named features. A stump splits one feature at one
 * threshold, so the sum can learn what a linear score cannot: "a worker's
 * second reply, and it covers little of its instruction". Each round fits
 * the stump with the largest Newton gain on the softmax's gradient and
 * Hessian, shrunk by RATE. Deterministic (no sampling; ties go to the first
 * feature by name, then the lowest threshold); the model is plain JSON.
 *
 * Hand-written because the npm gradient-boosting packages fit independent
 * rows (regression or one-vs-rest), not a softmax over each trace's events.
 */
import { featureFilter, type FeatureSet } from "./features";
import { contextOf } from "./input";
import { cachedFeatures } from "./learned";
import type { LearnedMethod, LearnedModel } from "./methods";
import { toRanking } from "./rank";
import { softmax } from "./softmax";
import { sharedTraining } from "./train-cache";
import type { BlameInput, BlameRanking, LabelledTrace } from "./types";

export interface Stump {
  readonly feature: string;
  /** Events with feature value <= threshold get `low`, the others `high` (an absent feature is 0). */
  readonly threshold: number;
  readonly low: number;
  readonly high: number;
}

export interface StumpModel extends LearnedModel {
  readonly version: 1;
  readonly stumps: Stump[];
}

/** Boosting rounds, shrinkage, L2 on a leaf (lambda), thresholds tried per feature, least Hessian mass on either side of a split. */
export const STUMPS = { rounds: 150, rate: 0.1, lambda: 10, thresholds: 8, minHessian: 0.5 };

const value = (named: Record<string, number>, feature: string) => named[feature] ?? 0;

export function stumpScore(stumps: readonly Stump[], named: Record<string, number>): number {
  let s = 0;
  for (const t of stumps) s += value(named, t.feature) <= t.threshold ? t.low : t.high;
  return s;
}

/** Up to `count` distinct thresholds per feature: midpoints between quantiles of its values. */
function thresholdsOf(values: Float64Array, count: number): number[] {
  const sorted = Float64Array.from(values).sort();
  const distinct = [...new Set(sorted)];
  if (distinct.length <= 1) return [];
  if (distinct.length <= count + 1) return distinct.slice(0, -1).map((v, i) => (v + distinct[i + 1]!) / 2);
  const out = new Set<number>();
  for (let q = 1; q <= count; q++) {
    const v = sorted[Math.floor((q * sorted.length) / (count + 1))]!;
    const next = distinct.find((d) => d > v);
    if (next !== undefined) out.add((v + next) / 2);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * The rows of `c` by ascending value, ties by row: what sorting the rows by `c[a] - c[b] || a - b` gives, as a stable
 * counting sort over the distinct values (a feature takes few), without a comparator call per pair.
 */
export function ascendingOrder(c: Float64Array): Int32Array {
  const n = c.length;
  // the distinct values (+0 and -0 as one, as the comparator ties them), ascending
  const distinct = Float64Array.from(new Set(c)).sort();
  if (distinct.some((v) => Number.isNaN(v))) return Int32Array.from(c.keys()).sort((a, b) => c[a]! - c[b]! || a - b);
  const rankOf = new Map<number, number>();
  distinct.forEach((v, i) => rankOf.set(v, i));
  const rank = new Int32Array(n);
  const start = new Int32Array(distinct.length + 1);
  for (let i = 0; i < n; i++) start[(rank[i] = rankOf.get(c[i]!)!) + 1]!++;
  for (let r = 0; r < distinct.length; r++) start[r + 1]! += start[r]!;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[start[rank[i]!]!++] = i;
  return order;
}

export type StumpOptions = Partial<typeof STUMPS> & { features?: FeatureSet };

export function trainStumps(examples: readonly LabelledTrace[], method = "learned_stumps", options: StumpOptions = {}): StumpModel {
  const o = { ...STUMPS, ...options, features: options.features ?? "all" };
  // the stumps do not depend on the method's name: one training serves every method that trains them
  const model = sharedTraining(`stumps ${JSON.stringify(o)}`, examples, () => boost(examples, o));
  return { ...model, method };
}

function boost(examples: readonly LabelledTrace[], o: typeof STUMPS & { features: FeatureSet }): StumpModel {
  const method = "";
  const keep = featureFilter(o.features);
  const sets: { start: number; size: number; chosen: number }[] = [];
  const rows: Record<string, number>[] = [];
  for (const t of examples) {
    const chosen = contextOf(t.input).ordered.findIndex((e) => e.id === t.decisive_event_id);
    if (chosen < 0) continue;
    const f = cachedFeatures(t.input);
    sets.push({ start: rows.length, size: f.length, chosen });
    for (const e of f) rows.push(e.named);
  }
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter(keep).sort();
  // each feature's value per row (an absent one 0), filled in one read of the rows
  const columnOf = new Map(names.map((n, f) => [n, f]));
  const columns = names.map(() => new Float64Array(rows.length));
  rows.forEach((r, i) => {
    for (const n of Object.keys(r)) {
      const f = columnOf.get(n);
      if (f !== undefined) columns[f]![i] = value(r, n);
    }
  });
  const splits = columns.map((c) => thresholdsOf(c, o.thresholds));
  // each feature's rows by ascending value, and for each threshold how many of them lie at or below it
  const orders = columns.map(ascendingOrder);
  const cutsOf = columns.map((c, f) => {
    const order = orders[f]!;
    let at = 0;
    return splits[f]!.map((threshold) => {
      while (at < order.length && c[order[at]!]! <= threshold) at++;
      return at;
    });
  });
  const score = new Float64Array(rows.length);
  const g = new Float64Array(rows.length);
  const h = new Float64Array(rows.length);
  const stumps: Stump[] = [];
  for (let round = 0; round < o.rounds; round++) {
    for (const s of sets) {
      let max = -Infinity;
      for (let c = 0; c < s.size; c++) max = Math.max(max, score[s.start + c]!);
      let sum = 0;
      for (let c = 0; c < s.size; c++) sum += (g[s.start + c] = Math.exp(score[s.start + c]! - max));
      for (let c = 0; c < s.size; c++) {
        const pc = g[s.start + c]! / sum;
        g[s.start + c] = pc - (c === s.chosen ? 1 : 0);
        h[s.start + c] = Math.max(pc * (1 - pc), 1e-6);
      }
    }
    let G = 0;
    let H = 0;
    for (let i = 0; i < rows.length; i++) {
      G += g[i]!;
      H += h[i]!;
    }
    // the best split: plain loops over typed arrays (no closure or object per candidate), the same sums in the same order
    let bestGain = 0;
    let bestFeature = -1;
    let bestThreshold = 0;
    let bestGl = 0;
    let bestHl = 0;
    for (let f = 0; f < names.length; f++) {
      const order = orders[f]!;
      const cuts = cutsOf[f]!;
      const thresholds = splits[f]!;
      let gl = 0;
      let hl = 0;
      let at = 0;
      for (let t = 0; t < thresholds.length; t++) {
        // rows in ascending value order: those up to cuts[t] have value <= threshold
        const cut = cuts[t]!;
        for (; at < cut; at++) {
          const row = order[at]!;
          gl += g[row]!;
          hl += h[row]!;
        }
        const gr = G - gl;
        const hr = H - hl;
        if (hl < o.minHessian || hr < o.minHessian) continue;
        const gain = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - (G * G) / (H + o.lambda);
        if (bestFeature < 0 || gain > bestGain + 1e-12) {
          bestGain = gain;
          bestFeature = f;
          bestThreshold = thresholds[t]!;
          bestGl = gl;
          bestHl = hl;
        }
      }
    }
    const best: { stump: Stump } | null =
      bestFeature < 0 ? null : { stump: { feature: names[bestFeature]!, threshold: bestThreshold, low: (-o.rate * bestGl) / (bestHl + o.lambda), high: (-o.rate * (G - bestGl)) / (H - bestHl + o.lambda) } };
    if (!best) break;
    const { stump } = best;
    stumps.push(stump);
    const column = columns[bestFeature]!;
    for (let i = 0; i < rows.length; i++) score[i]! += column[i]! <= stump.threshold ? stump.low : stump.high;
  }
  return { method, trained_on: sets.length, version: 1, stumps };
}

/** Each event's probability of being the decisive one under the stumps. */
export function stumpProbabilities(model: StumpModel, input: BlameInput): number[] {
  return softmax(cachedFeatures(input).map((f) => stumpScore(model.stumps, f.named)));
}

export function rankWithStumps(model: StumpModel, input: BlameInput, name = model.method): BlameRanking {
  const features = cachedFeatures(input);
  const p = stumpProbabilities(model, input);
  const scored = contextOf(input).ordered.map((event, k) => {
    const signals: Record<string, number> = {};
    for (const t of model.stumps) {
      const c = value(features[k]!.named, t.feature) <= t.threshold ? t.low : t.high;
      signals[t.feature] = (signals[t.feature] ?? 0) + c;
    }
    for (const [n, c] of Object.entries(signals)) if (Math.abs(c) < 0.05) delete signals[n];
    return { event, score: p[k]!, signals };
  });
  return toRanking(name, scored, "sum");
}

export const learnedStumps: LearnedMethod<StumpModel> = {
  name: "learned_stumps",
  learned: true,
  needs_group: false,
  description: "gradient-boosted decision stumps on learned_events' named features, softmax over the events of a trace; agents by the probability mass of their events",
  train: (examples) => trainStumps(examples),
  rank: (model, input) => rankWithStumps(model, input),
};

