import "server-only";
import type { StoredChange } from "@/lib/annotate/recompute";
import { prepareTrace } from "@/lib/credit";
import { decisionRecord } from "@/lib/decisions";
import { diagnosticsOf, storedMetricLabels } from "@/lib/hacking";
import { SPEC_VERSION, type TraceMetrics } from "@/lib/metrics";
import type { HumanLabels } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { pool, prisma } from "../db/client";
import { notFound } from "../errors";
import { decisionsUpsert } from "../decisions/store";
import { requestFold } from "../summaries/fold";
import { diagnosticsUpsert } from "../hacking/store";
import { metricsToColumns } from "../ingest/computed";
import { computedType } from "../ingest/store";
import { humanLabels, traceExists, traceLabelsOf } from "../queries/annotations";
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
  const trace = await loadTraceById(traceDbId);
  return (await recompute(traceDbId, trace, (await humanLabels(trace.trace_id)).labels, "metrics"))!;
}

/**
 * What a label write recomputes: nothing, the decision row (R_total), or
 * everything stored. The trace and its labels are read at once; a caller
 * may pass the trace already loading (`known.trace`, started with the
 * label's own write: the trace's events do not depend on its labels) and
 * the trace-level labels its write returned (`known.traceLabels`: the only
 * labels stored values read).
 */
export async function recomputeAfterLabel(
  ref: { id: number; traceId: string },
  change: StoredChange,
  known: { trace?: Promise<Trace>; traceLabels?: HumanLabels | null } = {},
): Promise<void> {
  if (change === "nothing") return;
  try {
    const [trace, labels] = await Promise.all([known.trace ?? loadTraceById(ref.id), known.traceLabels ?? humanLabels(ref.traceId).then((h) => h.labels)]);
    await recompute(ref.id, trace, labels, change);
  } catch (error) {
    // deleted while its label was written (its rows, or the rows the recompute writes beside it, are gone): a 404, not a 500
    if (!(await traceExists(ref.id))) throw notFound(`trace "${ref.traceId}"`);
    throw error;
  }
}

/**
 * Two recomputes of one trace at once upsert its diagnostics and decision rows
 * in one statement each; PostgreSQL may find them waiting on each other and
 * cancel one (40P01). Both write the same values from the same labels, so the
 * cancelled one simply runs again.
 */
async function deadlockRetried<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= 4 || (error as { code?: string }).code !== "40P01") throw error;
      await new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20));
    }
  }
}

/** The trace a label write will recompute, loading from now on (undefined when it recomputes nothing); a failed load is reported by recomputeAfterLabel, never unhandled. */
export function traceForRecompute(ref: { id: number }, change: StoredChange): Promise<Trace> | undefined {
  if (change === "nothing") return undefined;
  const loading = loadTraceById(ref.id);
  loading.catch(() => {}); // awaited later; a write that fails first never awaits it
  return loading;
}

async function recompute(traceDbId: number, trace: Trace, labels: HumanLabels, what: "metrics" | "r_total"): Promise<TraceMetrics | null> {
  for (let attempt = 0; ; attempt++) {
    const { metrics, traceLabels } = await deadlockRetried(() => (what === "metrics" ? writeAll(traceDbId, trace, labels) : writeDecisionRowOnly(traceDbId, trace, labels)));
    // a label that moved E1 or R_total left its difference pending in the decision summaries
    requestFold();
    if (attempt >= 4 || traceLabelKey(traceLabels) === traceLabelKey(labels)) return metrics;
    // the labels changed meanwhile: recompute with all of them as they are now
    labels = (await humanLabels(trace.trace_id)).labels;
  }
}

/** The trace-level labels (all the stored values read), in a form that ignores row order. */
function traceLabelKey(labels: HumanLabels): string {
  const families = Object.entries(labels.trace).map(([f, set]) => [f, [...(set?.values ?? [])].sort((a, b) => a - b), set?.adjudicated ?? null] as const);
  return JSON.stringify(families.sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}

/**
 * The tail of each recompute statement: the trace-level labels as the write's
 * own snapshot sees them (`$<n>` the trace's key). A label committed after
 * that snapshot was taken is recomputed by its own writer, whose row update
 * waits for this one: so the last write has always seen every label.
 */
const traceLabelsSql = (n: number) => `SELECT false AS adjudicated, family, value FROM annotations WHERE trace_key = $${n} AND event_id = ''
  UNION ALL SELECT true, family, value FROM adjudications WHERE trace_key = $${n} AND event_id = ''`;

type Written = { metrics: TraceMetrics | null; traceLabels: HumanLabels };

async function writeAll(traceDbId: number, trace: Trace, labels: HumanLabels): Promise<Written> {
  // one causal analysis serves the metric columns, the diagnostics and the decision row (as at ingest)
  const p = prepareTrace(trace, storedMetricLabels(labels));
  const columns = metricsToColumns(p.metrics);
  const names = Object.keys(columns);
  const sets = names.map((name, i) => `"${name}" = $${i + 2}::${computedType(name)}`).join(", ");
  const values: unknown[] = [traceDbId, ...names.map((n) => columns[n])];
  const diagnostics = diagnosticsUpsert([{ traceDbId, diagnostics: diagnosticsOf(p) }], values.length + 1);
  values.push(...diagnostics.values);
  const decisions = decisionsUpsert([{ id: traceDbId, record: decisionRecord(trace, labels, p.analysis) }], values.length + 1);
  values.push(...decisions.values, trace.trace_id);
  // data-modifying CTEs all run, in one statement: one round trip, one snapshot, all or nothing
  const { rows } = await pool().query<{ adjudicated: boolean; family: string; value: number }>({
    name: "recompute.metrics",
    text: `WITH m AS (UPDATE traces SET ${sets}, updated_at = now() WHERE id = $1), x AS (${diagnostics.text}), d AS (${decisions.text}) ${traceLabelsSql(values.length)}`,
    values,
  });
  return { metrics: p.metrics, traceLabels: traceLabelsOf(rows) };
}

async function writeDecisionRowOnly(traceDbId: number, trace: Trace, labels: HumanLabels): Promise<Written> {
  const decisions = decisionsUpsert([{ id: traceDbId, record: decisionRecord(trace, labels) }]);
  const values = [...decisions.values, trace.trace_id];
  const { rows } = await pool().query<{ adjudicated: boolean; family: string; value: number }>({
    name: "recompute.decisions",
    text: `WITH d AS (${decisions.text}) ${traceLabelsSql(values.length)}`,
    values,
  });
  return { metrics: null, traceLabels: traceLabelsOf(rows) };
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
