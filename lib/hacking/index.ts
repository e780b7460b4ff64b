/**
 * Hacking diagnostics (docs/metrics.md, "Hacking diagnostics"): one
 * detector per reward-hacking pattern of multi-agent systems.
 *
 *   trace + human labels -> credit/prepareTrace (analysis, rewards)
 *     -> ccp credit (uniform preset) -> four per-trace detectors -> flags
 *   judge vs people per checkpoint -> collusion drift (collusion.ts)
 */
import { creditColumns, prepareTrace, type PreparedTrace } from "../credit/index";
import { NO_LABELS, type HumanLabels } from "../rewards/labels";
import type { Trace } from "../trace/types";
import { communicationPadding, freeRiding, pseudoParallelism, toolSpam } from "./detectors";
import { DIAGNOSTICS_VERSION, TRACE_DETECTORS, type TraceDiagnostics } from "./types";

export * from "./types";
export { THRESHOLDS, COLLUSION_MIN_UNITS } from "./thresholds";
export { DETECTOR_LABELS, DIAGNOSTICS_DOCS } from "./labels";
export { collusionByCheckpoint, type CollusionInput, type CollusionRow } from "./collusion";

/**
 * The labels the diagnostics read: exactly those the stored metrics read
 * (trace-level task_success, through E1; lib/annotate/recompute.ts), so that
 * they are recomputed with the stored metrics and never go stale. Event-level
 * labels change credit on read, not the stored flags.
 */
export function storedMetricLabels(labels: HumanLabels): HumanLabels {
  const taskSuccess = labels.trace.task_success;
  return taskSuccess ? { trace: { task_success: taskSuccess }, events: new Map() } : NO_LABELS;
}

/** The four per-trace detectors of one trace, given its human labels (only the stored metrics' are read). O(V + E). */
export function computeDiagnostics(trace: Trace, labels: HumanLabels = NO_LABELS): TraceDiagnostics {
  return diagnosticsOf(prepareTrace(trace, storedMetricLabels(labels)));
}

/** The detectors of a trace prepared for credit with {@link storedMetricLabels} (ingest shares it with the metric columns). */
export function diagnosticsOf(p: PreparedTrace): TraceDiagnostics {
  const a = p.analysis;
  const detectors = {
    pseudo_parallelism: pseudoParallelism(a),
    free_riding: freeRiding(a, creditColumns(p)),
    communication_padding: communicationPadding(a),
    tool_spam: toolSpam(a),
  };
  return { diagnostics_version: DIAGNOSTICS_VERSION, detectors, flags: TRACE_DETECTORS.filter((d) => detectors[d].flagged) };
}
