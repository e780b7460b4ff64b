/**
 * Reward families, weights and the resolution of reward values
 * (SPEC.md section 2).
 *
 *   human labels, trace.rewards, event.rewards, metrics
 *     -> resolveRewards -> R_f (trace) + r_f(a) (anchors) -> credit
 */
import { FAMILIES, type Family } from "../trace/types";
import type { FamilyWeights } from "./presets";

export * from "./breakdown";
export * from "./channels";
export * from "./families";
export * from "./labels";
export * from "./presets";
export * from "./resolve";

/**
 * R_total = sum over families with a trace value of w_f x R_f. Absent
 * families add nothing; event-level values never change it.
 */
export function rTotal(families: Readonly<Record<Family, number | null>>, weights: Readonly<FamilyWeights>): number {
  let total = 0;
  for (const f of FAMILIES) {
    const r = families[f];
    if (r !== null) total += weights[f] * r;
  }
  return total;
}
