import "server-only";
import { collusionByCheckpoint, COLLUSION_MIN_UNITS, DIAGNOSTICS_VERSION, THRESHOLDS, TRACE_DETECTORS, type TraceDetector, type TraceDiagnostics } from "@/lib/hacking";
import { Prisma } from "@/lib/generated/prisma/client";
import { SPEC_VERSION } from "@/lib/metrics";
import type { CollusionAnswer } from "@/lib/api/contracts/aggregates";
import { prisma } from "../db/client";
import { agreement, type AgreementFilter } from "../judges/labels";
import { traceWhere, type TraceFilter } from "../queries/trace-filter";
import { findTraceRow } from "../queries/traces";
import { storedDiagnostics } from "./store";

/** `GET /api/traces/{id}/diagnostics`: the stored diagnostics (recomputed when missing or stale). */
export async function traceDiagnostics(traceId: string): Promise<{ version: typeof SPEC_VERSION; trace_id: string } & TraceDiagnostics> {
  const row = await findTraceRow(traceId);
  return { version: SPEC_VERSION, trace_id: row.traceId, ...(await storedDiagnostics(row.id)) };
}

/** Checkpoints in the dashboard's order: each policy_version by its first stored trace. */
async function checkpointOrder(): Promise<string[]> {
  const rows = await prisma().$queryRaw<{ v: string }[]>`
    SELECT t.metadata->>'policy_version' AS v FROM traces t WHERE t.metadata->>'policy_version' IS NOT NULL GROUP BY 1 ORDER BY min(t.id)`;
  return rows.map((r) => r.v);
}

/** `GET /api/diagnostics/collusion`: verifier collusion per judge, family and checkpoint, over what the caller may read. */
export async function collusion(filter: Omit<AgreementFilter, "by">, readable: string[] | null): Promise<CollusionAnswer> {
  const groups = await agreement({ ...filter, by: "policy_version" }, readable);
  return {
    version: SPEC_VERSION,
    diagnostics_version: DIAGNOSTICS_VERSION,
    threshold: THRESHOLDS.verifier_collusion,
    min_units: COLLUSION_MIN_UNITS,
    rows: collusionByCheckpoint(groups, await checkpointOrder()),
  };
}

export interface FlagTrendPoint {
  /** null: traces without metadata.policy_version (listed last) */
  policy_version: string | null;
  traces: number;
  /** traces whose diagnostics are stored (the denominator of every rate) */
  diagnosed: number;
  detectors: Record<TraceDetector, { flagged: number; rate: number | null }>;
}

/** `GET /api/diagnostics/trend`: how often each detector flags, per checkpoint in checkpoint order. One SQL query. */
export async function flagTrend(filter: TraceFilter): Promise<{ version: typeof SPEC_VERSION; diagnostics_version: typeof DIAGNOSTICS_VERSION; points: FlagTrendPoint[] }> {
  const counts = TRACE_DETECTORS.map((d) => Prisma.sql`count(*) FILTER (WHERE d.flags @> ARRAY[${d}]::text[])::int AS ${Prisma.raw(`"${d}"`)}`);
  const rows = await prisma().$queryRaw<(Record<TraceDetector, number> & { v: string | null; traces: number; diagnosed: number })[]>`
    SELECT t.metadata->>'policy_version' AS v, count(*)::int AS traces, count(d.trace_id)::int AS diagnosed, ${Prisma.join(counts)}
    FROM traces t LEFT JOIN trace_diagnostics d ON d.trace_id = t.id ${traceWhere(filter)}
    GROUP BY 1 ORDER BY (t.metadata->>'policy_version' IS NULL), min(t.id)`;
  const points = rows.map((r) => ({
    policy_version: r.v,
    traces: r.traces,
    diagnosed: r.diagnosed,
    detectors: Object.fromEntries(TRACE_DETECTORS.map((d) => [d, { flagged: r[d], rate: r.diagnosed === 0 ? null : r[d] / r.diagnosed }])) as FlagTrendPoint["detectors"],
  }));
  return { version: SPEC_VERSION, diagnostics_version: DIAGNOSTICS_VERSION, points };
}
