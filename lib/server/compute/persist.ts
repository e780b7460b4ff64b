import "server-only";
import type { StoredChange } from "@/lib/annotate/recompute";
import { prepareTrace } from "@/lib/credit";
import { decisionRecord } from "@/lib/decisions";
import { diagnosticsOf, storedMetricLabels } from "@/lib/hacking";
import { SPEC_VERSION, type TraceMetrics } from "@/lib/metrics";
import type { HumanLabels } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { pool, prisma } from "../db/client";
import { decisionsUpsert } from "../decisions/store";
import { diagnosticsUpsert } from "../hacking/store";
import { metricsToColumns } from "../ingest/computed";
import { computedType } from "../ingest/store";
import { humanLabels } from "../queries/annotations";
import { loadTraceById } from "../queries/load-trace";

/**
 * Keeps the stored per-trace values true: recomputes one trace (after its
 * labels change, or when it was stored under another spec version) and
 * writes them back. "metrics" rewrites the metric columns, the hacking
 * diagnostics and the decision row in one statement (so the three never
 * disagree); "r_total" (a trace-level label of another family than
 * task_success, lib/annotate/recompute.ts) only the decision row.
 *
 * Two label writes on one trace recompute concurrently, and the one that read
 * the older labels may write last. So after writing, the labels are read
 * again: if they changed meanwhile, the trace is recomputed with them (the
 * last writer has always seen the labels as they were when it finished).
 */
export async function recomputeMetrics(traceDbId: number): Promise<TraceMetrics> {
  return (await recompute(traceDbId, "metrics"))!;
}

/** What a label write recomputes: nothing, the decision row (R_total), or everything stored. */
export async function recomputeAfterLabel(traceDbId: number, change: StoredChange): Promise<void> {
  if (change !== "nothing") await recompute(traceDbId, change);
}

async function recompute(traceDbId: number, what: "metrics" | "r_total"): Promise<TraceMetrics | null> {
  const trace = await loadTraceById(traceDbId);
  let { labels } = await humanLabels(trace.trace_id);
  for (let attempt = 0; ; attempt++) {
    const metrics = what === "metrics" ? await writeAll(traceDbId, trace, labels) : await writeDecisionRowOnly(traceDbId, trace, labels);
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

async function writeAll(traceDbId: number, trace: Trace, labels: HumanLabels): Promise<TraceMetrics> {
  // one causal analysis serves the metric columns, the diagnostics and the decision row (as at ingest)
  const p = prepareTrace(trace, storedMetricLabels(labels));
  const columns = metricsToColumns(p.metrics);
  const names = Object.keys(columns);
  const sets = names.map((name, i) => `"${name}" = $${i + 2}::${computedType(name)}`).join(", ");
  const values: unknown[] = [traceDbId, ...names.map((n) => columns[n])];
  const diagnostics = diagnosticsUpsert([{ traceDbId, diagnostics: diagnosticsOf(p) }], values.length + 1);
  values.push(...diagnostics.values);
  const decisions = decisionsUpsert([{ id: traceDbId, record: decisionRecord(trace, labels, p.analysis) }], values.length + 1);
  values.push(...decisions.values);
  // data-modifying CTEs all run, in one statement: one round trip, one snapshot, all or nothing
  await pool().query({
    name: "recompute.metrics",
    text: `WITH m AS (UPDATE traces SET ${sets}, updated_at = now() WHERE id = $1), x AS (${diagnostics.text}), d AS (${decisions.text}) SELECT 1`,
    values,
  });
  return p.metrics;
}

async function writeDecisionRowOnly(traceDbId: number, trace: Trace, labels: HumanLabels): Promise<null> {
  await pool().query({ name: "recompute.decisions", ...decisionsUpsert([{ id: traceDbId, record: decisionRecord(trace, labels) }]) });
  return null;
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
