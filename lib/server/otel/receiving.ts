import "server-only";
import { otelConfig } from "../config";
import { prisma } from "../db/client";
import { ensureSweeper } from "./sweeper";

/**
 * OTLP traces that are not (or not yet again) a stored trace: being
 * received, being finalised, or failed to map. The trace list shows them
 * above the stored traces, the trace page says so; neither shows a trace
 * still receiving as if it were complete.
 */
export interface ReceivingTrace {
  trace_id: string;
  status: "receiving" | "finalising" | "failed";
  spans: number;
  service: string | null;
  root_name: string | null;
  first_span_at: string;
  last_span_at: string;
  /** when an earlier version of the trace was stored (it is shown, marked as receiving) */
  finalised_at: string | null;
  error: string | null;
  /** seconds without new spans after which it is finalised */
  idle_seconds: number;
}

const OPEN_STATUSES = ["receiving", "finalising", "failed"];

/**
 * The most recent traces not stored in their latest form. Also starts the
 * sweeper: after a restart, the first look at the list gets traces left
 * receiving finalised even if no span comes any more.
 */
export async function listReceivingTraces(limit = 20): Promise<ReceivingTrace[]> {
  ensureSweeper();
  const rows = await prisma().otelTrace.findMany({ where: { status: { in: OPEN_STATUSES } }, orderBy: { lastSpanAt: "desc" }, take: limit });
  return rows.map(view);
}

/** The receiving state of one trace, or null when it is stored (or was never received over OTLP). */
export async function receivingState(traceId: string): Promise<ReceivingTrace | null> {
  const row = await prisma().otelTrace.findUnique({ where: { traceId } });
  if (row === null || !OPEN_STATUSES.includes(row.status)) return null;
  ensureSweeper();
  return view(row);
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof prisma>["otelTrace"]["findUnique"]>>>;

function view(row: Row): ReceivingTrace {
  return {
    trace_id: row.traceId,
    status: row.status as ReceivingTrace["status"],
    spans: row.spanCount,
    service: row.service,
    root_name: row.rootName,
    first_span_at: row.firstSpanAt.toISOString(),
    last_span_at: row.lastSpanAt.toISOString(),
    finalised_at: row.finalisedAt?.toISOString() ?? null,
    error: row.error,
    idle_seconds: otelConfig().idleSeconds,
  };
}
