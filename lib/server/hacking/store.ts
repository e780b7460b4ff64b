import "server-only";
import type pg from "pg";
import { computeDiagnostics, DIAGNOSTICS_VERSION, TRACE_DETECTORS, THRESHOLDS, type TraceDetector, type TraceDiagnostics } from "@/lib/hacking";
import type { HumanLabels } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { z } from "zod";
import { pool, prisma } from "../db/client";
import { storedOrNull } from "../db/stored";
import { jsonText } from "../db/copy";
import { humanLabels } from "../queries/annotations";
import { loadTraceById } from "../queries/load-trace";

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

/**
 * Writes (insert or replace) the diagnostics rows of traces, one statement
 * for a whole batch (unnest), inside the caller's transaction when given
 * its client: ingest writes them with the trace rows, all or nothing.
 */
export async function writeDiagnostics(db: Queryable, rows: readonly { traceDbId: number; diagnostics: TraceDiagnostics }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(diagnosticsUpsert(rows));
}

/** The upsert of many traces' diagnostics as one statement whose parameters start at `$<first>` (a recompute runs it inside a larger one). */
export function diagnosticsUpsert(rows: readonly { traceDbId: number; diagnostics: TraceDiagnostics }[], first = 1): { text: string; values: unknown[] } {
  const col = (d: TraceDetector) => rows.map((r) => r.diagnostics.detectors[d].value);
  const $ = (i: number) => `$${first + i - 1}`;
  return {
    text: `INSERT INTO trace_diagnostics (trace_id, version, pseudo_parallelism, free_riding, communication_padding, tool_spam, flags, evidence, computed_at)
     SELECT u.id, ${$(2)}, u.pp, u.fr, u.cp, u.ts, ARRAY(SELECT jsonb_array_elements_text(u.flags)), u.evidence, now()
     FROM unnest(${$(1)}::int4[], ${$(3)}::float8[], ${$(4)}::float8[], ${$(5)}::float8[], ${$(6)}::float8[], ${$(7)}::jsonb[], ${$(8)}::jsonb[]) AS u(id, pp, fr, cp, ts, flags, evidence)
     ON CONFLICT (trace_id) DO UPDATE SET version = EXCLUDED.version, pseudo_parallelism = EXCLUDED.pseudo_parallelism,
       free_riding = EXCLUDED.free_riding, communication_padding = EXCLUDED.communication_padding, tool_spam = EXCLUDED.tool_spam,
       flags = EXCLUDED.flags, evidence = EXCLUDED.evidence, computed_at = now()`,
    values: [
      rows.map((r) => r.traceDbId), DIAGNOSTICS_VERSION,
      col("pseudo_parallelism"), col("free_riding"), col("communication_padding"), col("tool_spam"),
      rows.map((r) => JSON.stringify(r.diagnostics.flags)),
      rows.map((r) => jsonText(Object.fromEntries(TRACE_DETECTORS.map((d) => [d, r.diagnostics.detectors[d].events])))),
    ],
  };
}

/** Recomputes one trace's diagnostics from the stored trace and its human labels, and stores them. */
export async function recomputeDiagnostics(traceDbId: number, loaded?: { trace: Trace; labels: HumanLabels }): Promise<TraceDiagnostics> {
  const trace = loaded?.trace ?? (await loadTraceById(traceDbId));
  const labels = loaded?.labels ?? (await humanLabels(trace.trace_id)).labels;
  const diagnostics = computeDiagnostics(trace, labels);
  await writeDiagnostics(pool(), [{ traceDbId, diagnostics }]);
  return diagnostics;
}

/**
 * The lazy backfill: traces stored before diagnostics existed (no row) or
 * under another DIAGNOSTICS_VERSION are recomputed at start-up; returns how many.
 */
export async function recomputeStaleDiagnostics(): Promise<number> {
  const stale = await pool().query<{ id: number }>(
    `SELECT t.id FROM traces t LEFT JOIN trace_diagnostics d ON d.trace_id = t.id WHERE d.trace_id IS NULL OR d.version <> $1 ORDER BY t.id`,
    [DIAGNOSTICS_VERSION],
  );
  for (const { id } of stale.rows) await recomputeDiagnostics(id);
  return stale.rows.length;
}

/** The events behind each detector's value, as stored in trace_diagnostics.evidence. */
const evidenceSchema = z.partialRecord(z.enum(TRACE_DETECTORS), z.array(z.string()));

/** The stored diagnostics of a trace (recomputed first when missing or stale). */
export async function storedDiagnostics(traceDbId: number): Promise<TraceDiagnostics> {
  const row = await prisma().traceDiagnostics.findUnique({ where: { traceId: traceDbId } });
  if (!row || row.version !== DIAGNOSTICS_VERSION) return recomputeDiagnostics(traceDbId);
  const evidence = storedOrNull(evidenceSchema, row.evidence, `trace ${traceDbId}: its stored diagnostics' evidence`);
  // evidence that does not parse (logged) is computed again
  if (evidence === null) return recomputeDiagnostics(traceDbId);
  const values: Record<TraceDetector, number | null> = {
    pseudo_parallelism: row.pseudoParallelism, free_riding: row.freeRiding, communication_padding: row.communicationPadding, tool_spam: row.toolSpam,
  };
  const flags = TRACE_DETECTORS.filter((d) => row.flags.includes(d));
  const detectors = Object.fromEntries(
    TRACE_DETECTORS.map((d) => [d, { value: values[d], threshold: THRESHOLDS[d], flagged: flags.includes(d), events: evidence[d] ?? [] }]),
  ) as TraceDiagnostics["detectors"];
  return { diagnostics_version: DIAGNOSTICS_VERSION, detectors, flags };
}
