/**
 * Everything persistence needs from one trace, in one cheap pass: metrics
 * (for filters and project aggregates), roles and event order (for paged
 * event lists), R_f, and R_total plus CCP credit under each preset. The
 * graph, the terminal BFS and the resolved rewards are shared by all of it.
 */
import type { TraceMetrics } from "../metrics/types";
import { rTotal } from "../rewards/index";
import type { HumanLabels } from "../rewards/labels";
import { BUILTIN_PRESETS, DEFAULT_TOKEN_BUDGET, type WeightPreset } from "../rewards/presets";
import type { Family, Trace } from "../trace/types";
import { ccpCredits, combineCredits, type FamilyCredits } from "./ccp";
import { prepareTrace } from "./prepare";

export interface PresetSummary {
  readonly r_total: number;
  /** CCP credit C(v) per event (array order), not normalized. */
  readonly credit: Float64Array;
}

export interface TraceSummary {
  readonly metrics: TraceMetrics;
  /** Role flags per event (array order); see ROLE in lib/metrics/roles. */
  readonly roles: Uint16Array;
  /** Event order index per event (array order): the `step` of the export. */
  readonly rank: Int32Array;
  /** Positions of the terminal and the stop event (-1 when none). */
  readonly terminal: number;
  readonly stop: number;
  /** R_f under the default token budget. */
  readonly families: Readonly<Record<Family, number | null>>;
  /** Keyed by preset name. */
  readonly presets: Readonly<Record<string, PresetSummary>>;
}

/**
 * Computes the persistence summary. Family credits are computed once per
 * distinct token budget and only reweighted per preset. O(V + E) for the
 * built-in presets (all share one budget).
 */
export function computeTraceSummary(
  trace: Trace,
  labels?: HumanLabels,
  presets: readonly WeightPreset[] = Object.values(BUILTIN_PRESETS),
): TraceSummary {
  const p = prepareTrace(trace, labels);
  const creditsByBudget = new Map<number, FamilyCredits>();
  const summaries: Record<string, PresetSummary> = {};
  for (const preset of presets) {
    const rewards = p.rewards(preset.token_budget);
    let credits = creditsByBudget.get(preset.token_budget);
    if (!credits) {
      credits = ccpCredits(p.analysis, rewards);
      creditsByBudget.set(preset.token_budget, credits);
    }
    summaries[preset.name] = { r_total: rTotal(rewards.families, preset.weights), credit: combineCredits(credits, preset.weights) };
  }
  return {
    metrics: p.metrics,
    roles: p.roles,
    rank: p.analysis.graph.rank,
    terminal: p.analysis.graph.terminal,
    stop: p.analysis.graph.stop,
    families: p.rewards(DEFAULT_TOKEN_BUDGET).families,
    presets: summaries,
  };
}
