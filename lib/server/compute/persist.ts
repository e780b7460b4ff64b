import "server-only";
import { computeMetrics, SPEC_VERSION, type TraceMetrics } from "@/lib/metrics";
import { pool, prisma } from "../db/client";
import { recomputeDiagnostics } from "../hacking/store";
import { metricsToColumns } from "../ingest/computed";
import { writeDecisionRow } from "../decisions/store";
import { computedType } from "../ingest/store";
import type { HumanLabels } from "@/lib/rewards";
import { humanLabels } from "../queries/annotations";
import { loadTraceById } from "../queries/load-trace";

/**
 * Keeps the per-trace metric columns true: recomputes one trace (after its
 * labels change, or when it was stored under another spec version) and
 * writes the columns back.
 *
 * Two label writes on one trace recompute concurrently, and the one that read
 * the older labels may write last. So after writing, the labels are read
 * again: if they changed meanwhile, the trace is recomputed with them (the
 * last writer has always seen the labels as they were when it finished).
 */
export async function recomputeMetrics(traceDbId: number): Promise<TraceMetrics> {
  const trace = await loadTraceById(traceDbId);
  let { labels } = await humanLabels(trace.trace_id);
  for (let attempt = 0; ; attempt++) {
    const metrics = await writeComputed(traceDbId, trace, labels);
    const now = (await humanLabels(trace.trace_id)).labels;
    if (attempt >= 4 || traceLabelKey(now) === traceLabelKey(labels)) return metrics;
    labels = now;
  }
}

/** The trace-level labels (all the stored values read), in a form that ignores row order. */
function traceLabelKey(labels: HumanLabels): string {
  const families = Object.entries(labels.trace).map(([f, set]) => [f, [...(set?.values ?? [])].sort((a, b) => a - b), set?.adjudicated ?? null] as const);
  return JSON.stringify(families.sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

async function writeComputed(traceDbId: number, trace: Awaited<ReturnType<typeof loadTraceById>>, labels: HumanLabels): Promise<TraceMetrics> {
  const metrics = computeMetrics(trace, labels);
  const columns = metricsToColumns(metrics);
  const names = Object.keys(columns);
  const sets = names.map((name, i) => `"${name}" = $${i + 2}::${computedType(name)}`).join(", ");
  await pool().query(`UPDATE traces SET ${sets}, updated_at = now() WHERE id = $1`, [traceDbId, ...names.map((n) => columns[n])]);
  // the hacking diagnostics read the same labels as these columns (trace-level task_success)
  await recomputeDiagnostics(traceDbId, { trace, labels });
  // R_total and the decision features live beside the metrics and change with the same labels
  await writeDecisionRow(traceDbId, trace, labels);
  return metrics;
}

/** Recomputes every trace whose stored metrics are missing or of another spec version; returns how many. */
export async function recomputeStaleMetrics(): Promise<number> {
  const stale = await prisma().trace.findMany({
    where: { OR: [{ metricsVersion: null }, { metricsVersion: { not: SPEC_VERSION } }] },
    select: { id: true },
  });
  for (const { id } of stale) await recomputeMetrics(id);
  return stale.length;
}
