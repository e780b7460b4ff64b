/**
 * Causal Credit Propagation (SPEC.md section 3): each family's anchor values
 * flow back along causal edges, decaying by gamma_f per hop, within the
 * reach its rule allows.
 */
import { clearBfs, createBfsScratch, filteredPredecessors, reverseBfs, type BfsScratch } from "../graph/causal";
import type { TraceAnalysis } from "../metrics/analysis";
import { FAMILY_RULES, ORCHESTRATION_MAX_HOPS, ORCHESTRATION_RECEIVERS } from "../rewards/families";
import type { FamilyWeights } from "../rewards/presets";
import type { ResolvedRewards } from "../rewards/resolve";
import { FAMILIES, type Family } from "../trace/types";

/** credit_f(v) per family, indexed by event position. */
export type FamilyCredits = Record<Family, Float64Array>;

/** A credit sum this close to 0 counts as 0 for `normalize` (float cancellation must not blow up the scale). */
export const NORMALIZE_EPSILON = 1e-12;

/**
 * credit_f(v) for every family and event. task_success costs one reverse
 * BFS (shared with the metrics); orchestration one BFS of at most 3 hops per
 * anchor; the rest are local. O(V + E + orchestration neighbourhoods).
 */
export function ccpCredits(a: TraceAnalysis, r: ResolvedRewards): FamilyCredits {
  const n = a.graph.n;
  const credits = {} as FamilyCredits;
  let scratch: BfsScratch | undefined;
  const getScratch = () => (scratch ??= createBfsScratch(n));
  for (const f of FAMILIES) {
    const credit = new Float64Array(n);
    const anchors = r.anchors[f];
    const values = r.values[f];
    const rule = FAMILY_RULES[f];
    switch (rule.propagation) {
      case "local":
        for (const i of anchors) if (!Number.isNaN(values[i]!)) credit[i] = credit[i]! + values[i]!;
        break;
      case "all_ancestors":
        propagateToAncestors(a, anchors, values, rule.gamma!, credit, getScratch);
        break;
      case "three_hops":
        propagateToOrchestrators(a, anchors, values, rule.gamma!, credit, getScratch());
        break;
      case "stop_and_continue":
        propagateToContinue(a, anchors, values, rule.gamma!, credit);
        break;
    }
    credits[f] = credit;
  }
  return credits;
}

/** r x gamma^d to the anchor and all its ancestors; the terminal's distances are already known. */
function propagateToAncestors(
  a: TraceAnalysis,
  anchors: Int32Array,
  values: Float64Array,
  gamma: number,
  credit: Float64Array,
  getScratch: () => BfsScratch,
): void {
  for (const anchor of anchors) {
    const r = values[anchor]!;
    if (Number.isNaN(r)) continue;
    if (anchor === a.graph.terminal) {
      const dist = a.terminalDist;
      for (let v = 0; v < dist.length; v++) {
        const d = dist[v]!;
        if (d >= 0) credit[v] = credit[v]! + r * Math.pow(gamma, d);
      }
      continue;
    }
    const scratch = getScratch();
    const count = reverseBfs(a.graph, anchor, Infinity, scratch);
    for (let k = 0; k < count; k++) {
      const v = scratch.queue[k]!;
      credit[v] = credit[v]! + r * Math.pow(gamma, scratch.dist[v]!);
    }
    clearBfs(scratch, count);
  }
}

/**
 * Orchestration: anchors within 3 hops, received only by decisions, spawns
 * and aggregates. Hops are counted through events of any type (d is
 * measured on the whole causal graph); only receiving is restricted.
 */
function propagateToOrchestrators(
  a: TraceAnalysis,
  anchors: Int32Array,
  values: Float64Array,
  gamma: number,
  credit: Float64Array,
  scratch: BfsScratch,
): void {
  const events = a.trace.events;
  const receives = new Uint8Array(a.graph.n);
  for (let v = 0; v < a.graph.n; v++) if (ORCHESTRATION_RECEIVERS.has(events[v]!.type)) receives[v] = 1;
  // On the last hop only receivers matter; skipping the rest avoids rescanning
  // a wide aggregate's fan-in of messages once per anchor behind it.
  const receiverPreds = filteredPredecessors(a.graph, receives);
  for (const anchor of anchors) {
    const r = values[anchor]!;
    if (Number.isNaN(r)) continue;
    const count = reverseBfs(a.graph, anchor, ORCHESTRATION_MAX_HOPS, scratch, receiverPreds);
    for (let k = 0; k < count; k++) {
      const v = scratch.queue[k]!;
      if (receives[v] === 1) credit[v] = credit[v]! + r * Math.pow(gamma, scratch.dist[v]!);
    }
    clearBfs(scratch, count);
  }
}

/**
 * stop_decision: the anchor gets r; the latest earlier (in event order)
 * `continue` decision of the same agent gets r x 0.5; nobody else. One pass
 * in event order remembering each agent's latest continue. O(V).
 */
function propagateToContinue(
  a: TraceAnalysis,
  anchors: Int32Array,
  values: Float64Array,
  share: number,
  credit: Float64Array,
): void {
  const { graph } = a;
  const events = a.trace.events;
  const isAnchor = new Uint8Array(graph.n);
  for (const i of anchors) isAnchor[i] = 1;
  const lastContinue = new Map<string, number>();
  for (let p = 0; p < graph.n; p++) {
    const i = graph.order[p]!;
    const e = events[i]!;
    const r = values[i]!;
    if (isAnchor[i] === 1 && !Number.isNaN(r)) {
      credit[i] = credit[i]! + r;
      const c = lastContinue.get(e.agent);
      if (c !== undefined) credit[c] = credit[c]! + r * share;
    }
    // Recorded after the anchor check: the continue must be strictly earlier.
    if (e.type === "orchestrator_decision" && e.decision === "continue") lastContinue.set(e.agent, i);
  }
}

/**
 * Scales each family that has an R_f so its credits sum to R_f (signed,
 * sum-conserving). Families without R_f, or whose credits sum to 0, stay.
 * In place.
 */
export function normalizeCredits(credits: FamilyCredits, families: Readonly<Record<Family, number | null>>): void {
  for (const f of FAMILIES) {
    const target = families[f];
    if (target === null) continue;
    const credit = credits[f];
    let sum = 0;
    for (let v = 0; v < credit.length; v++) sum += credit[v]!;
    if (Math.abs(sum) <= NORMALIZE_EPSILON) continue;
    const scale = target / sum;
    for (let v = 0; v < credit.length; v++) credit[v] = credit[v]! * scale;
  }
}

/** C(v) = sum_f w_f x credit_f(v). O(8 V). */
export function combineCredits(credits: FamilyCredits, weights: Readonly<FamilyWeights>): Float64Array {
  const n = credits.task_success.length;
  const total = new Float64Array(n);
  for (const f of FAMILIES) {
    const w = weights[f];
    if (w === 0) continue;
    const credit = credits[f];
    for (let v = 0; v < n; v++) total[v] = total[v]! + w * credit[v]!;
  }
  return total;
}
