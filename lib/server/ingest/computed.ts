import type { TraceForStorage } from "@/lib/ingest/prepare";
import { METRIC_CATALOGUE, metricValue, SPEC_VERSION, type TraceMetrics } from "@/lib/metrics";
import type { TraceAnalysis } from "@/lib/metrics/analysis";
import { NO_LABELS, type HumanLabels } from "@/lib/rewards";
import { prepareTrace as prepareForCredit } from "@/lib/credit";
import { diagnosticsOf, storedMetricLabels, type TraceDiagnostics } from "@/lib/hacking";
import { listColumns } from "@/lib/trace/list-columns";
import type { ComputedColumns } from "./store";

/**
 * The metric columns and the hacking diagnostics from one analysis of the
 * trace (the diagnostics' credit needs it anyway). Their labels are the
 * trace-level task_success ones, all that E1 (and so every column) reads.
 */
export function computedWithDiagnostics(prepared: TraceForStorage, labels: HumanLabels = NO_LABELS): { computed: ComputedColumns; diagnostics: TraceDiagnostics; analysis: TraceAnalysis } {
  const p = prepareForCredit(prepared.trace, storedMetricLabels(labels));
  return { computed: { ...metricsToColumns(p.metrics), ...listColumns(prepared.trace) }, diagnostics: diagnosticsOf(p), analysis: p.analysis };
}

/**
 * The computed metrics (SPEC.md section 4) as the trace row stores them, so
 * that aggregation over many traces is one SQL query.
 */
export function metricsToColumns(m: TraceMetrics): ComputedColumns {
  return {
    e1: m.e1,
    ...Object.fromEntries(METRIC_CATALOGUE.map((c) => [c.key, metricValue(m, c.key)])),
    stop_reason: m.stop.stop_reason,
    stop_t: m.stop.stop_t,
    tail_events: m.stop.tail_events,
    tail_tokens: m.stop.tail_tokens,
    wasted_work_ratio: m.stop.wasted_work_ratio,
    verdict: m.stop.verdict,
    metrics_version: SPEC_VERSION,
  };
}
