/**
 * What Baton stores per trace for the decision analytics: the features, their
 * bucket keys and R_total under the uniform preset (human labels applied,
 * no judges), the same R_total the group view and `grpo` compute.
 */
import { prepareTrace, type PreparedTrace } from "../credit/prepare";
import { BUILTIN_PRESETS, rTotal, type HumanLabels, type WeightPreset } from "../rewards/index";
import type { TraceAnalysis } from "../metrics/analysis";
import type { Trace } from "../trace/types";
import { traceBuckets, type TraceBuckets } from "./buckets";
import { decisionFeatures, type DecisionFeatures } from "./features";

export const DECISION_PRESET: WeightPreset = BUILTIN_PRESETS.uniform;

export interface DecisionRecord {
  features: DecisionFeatures;
  buckets: TraceBuckets;
  r_total: number;
}

/** R_total of a prepared trace under a preset. */
export function traceRTotal(p: PreparedTrace, preset: WeightPreset = DECISION_PRESET): number {
  return rTotal(p.rewards(preset.token_budget).families, preset.weights);
}

/** `analysis`: the trace's causal analysis when the caller has one already (ingest), so it is not built twice. */
export function decisionRecord(trace: Trace, labels?: HumanLabels, analysis?: TraceAnalysis): DecisionRecord {
  const prepared = prepareTrace(trace, labels, analysis);
  const features = decisionFeatures(trace, prepared.analysis.graph);
  return { features, buckets: traceBuckets(features), r_total: traceRTotal(prepared) };
}
