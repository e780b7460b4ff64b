import "server-only";
import { computeMetrics, SPEC_VERSION, type TraceMetrics } from "@/lib/metrics";
import { pool, prisma } from "../db/client";
import { recomputeDiagnostics } from "../hacking/store";
import { metricsToColumns } from "../ingest/computed";
import { writeDecisionRow } from "../decisions/store";
import { computedType } from "../ingest/store";
import { humanLabels } from "../queries/annotations";
import { loadTraceById } from "../queries/load-trace";

/**
 * Keeps the per-trace metric columns true: recomputes one trace (after its
 * labels change, or when it was stored under another spec version) and
 * writes the columns back.
 */
export async function recomputeMetrics(traceDbId: number): Promise<TraceMetrics> {
  const trace = await loadTraceById(traceDbId);
  const { labels } = await humanLabels(trace.trace_id);
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
