/**
 * A trace made ready for credit: analysis, metrics and roles computed once,
 * resolved rewards memoised per token budget (the only preset property
 * they depend on), so that several methods and presets share the work.
 */
import { analyzeTrace, type TraceAnalysis } from "../metrics/analysis";
import { computeMetricsDetailed } from "../metrics/index";
import type { TraceMetrics } from "../metrics/types";
import { NO_LABELS, type HumanLabels } from "../rewards/labels";
import { resolveRewards, type ResolvedRewards } from "../rewards/resolve";
import type { Trace } from "../trace/types";

export interface PreparedTrace {
  readonly analysis: TraceAnalysis;
  readonly metrics: TraceMetrics;
  /** Role flags per event (array order); see ROLE in lib/metrics/roles. */
  readonly roles: Uint16Array;
  readonly labels: HumanLabels;
  /** R_f and r_f(a) under a preset's token budget, computed once per budget. */
  rewards(tokenBudget: number): ResolvedRewards;
}

/** Analyses a trace and computes its metrics. O(V + E). */
/** `analysis` (labels do not enter it) may come from an earlier preparation of the same trace. */
export function prepareTrace(trace: Trace, labels: HumanLabels = NO_LABELS, analysis: TraceAnalysis = analyzeTrace(trace)): PreparedTrace {
  const { metrics, roles } = computeMetricsDetailed(analysis, labels);
  const cache = new Map<number, ResolvedRewards>();
  return {
    analysis,
    metrics,
    roles,
    labels,
    rewards(tokenBudget) {
      let resolved = cache.get(tokenBudget);
      if (!resolved) {
        resolved = resolveRewards(analysis, metrics, labels, tokenBudget);
        cache.set(tokenBudget, resolved);
      }
      return resolved;
    },
  };
}
