/**
 * Baseline credit methods for side-by-side comparison with CCP
 * (SPEC.md section 3): they show what CCP improves on.
 */
import type { CausalGraph } from "../graph/causal";
import type { FamilyWeights } from "../rewards/presets";
import type { ResolvedRewards } from "../rewards/resolve";
import { FAMILIES } from "../trace/types";

/** Discount per step of event order for `mc_return`. */
export const MC_DISCOUNT = 0.95;

/** `uniform`: every event gets R_total / N, the "uniform credit diffusion" the paper warns about. */
export function uniformCredit(n: number, rTotal: number): Float64Array {
  return new Float64Array(n).fill(rTotal / n);
}

/** `terminal`: the terminal event gets R_total, every other event 0. */
export function terminalCredit(g: CausalGraph, rTotal: number): Float64Array {
  const credit = new Float64Array(g.n);
  credit[g.terminal] = rTotal;
  return credit;
}

/**
 * Immediate reward of each event: i_k = sum_f w_f x r_f(k) over the
 * families anchored at k that have a value there (0 if none). O(8 V).
 */
export function immediateRewards(r: ResolvedRewards, weights: Readonly<FamilyWeights>, n: number): Float64Array {
  const out = new Float64Array(n);
  for (const f of FAMILIES) {
    const w = weights[f];
    const values = r.values[f];
    for (let k = 0; k < n; k++) {
      const v = values[k]!;
      if (!Number.isNaN(v)) out[k] = out[k]! + w * v;
    }
  }
  return out;
}

/**
 * `mc_return`: G_k = sum over j >= k of 0.95^(j-k) x i_j in event order,
 * by one backward pass (G_k = i_k + 0.95 G_{k+1}). Indexed by event position.
 */
export function mcReturns(g: CausalGraph, immediate: Float64Array): Float64Array {
  const out = new Float64Array(g.n);
  let next = 0;
  for (let p = g.n - 1; p >= 0; p--) {
    const k = g.order[p]!;
    next = immediate[k]! + MC_DISCOUNT * next;
    out[k] = next;
  }
  return out;
}
