import "server-only";
import type { OtlpSpan } from "@/lib/adapters/otlp-span";
import type { AdaptedTrace } from "@/lib/adapters/types";
import { recordedCallSchema } from "@/lib/gateway/call";
import { joinCalls, mergedCall, SLACK_S, type GatewayCandidate, type SpanCall } from "@/lib/gateway/join";
import type { ModelCall } from "@/lib/trace/calls";
import { pool } from "../db/client";
import { storedOrNull } from "../db/stored";

/**
 * The gateway's side of an OTLP trace (docs/gateway.md "Gateway and OTLP:
 * one call stored once"): before the trace is stored, its calls take what
 * the gateway recorded of them (lib/gateway/join.ts); once it is stored,
 * those gateway calls are marked as held by it and their runs are stored
 * again without them (a run left with none has no trace of its own).
 */

export interface GatewayJoin {
  trace: AdaptedTrace;
  /** the gateway call rows joined, to be claimed once the trace is stored */
  rowIds: string[];
  byTraceparent: number;
  byContent: number;
}

const ns = (nanos: string) => Number(BigInt(nanos) / 1_000_000n) / 1000;

/** The trace with its calls joined to the project's gateway calls (none joined: the trace as it was). */
export async function joinGateway(trace: AdaptedTrace, spans: readonly OtlpSpan[], project: string): Promise<GatewayJoin> {
  const calls = (trace as { calls?: ModelCall[] }).calls;
  if (calls === undefined || calls.length === 0 || spans.length === 0) return { trace, rowIds: [], byTraceparent: 0, byContent: 0 };
  const otelTraceId = spans[0]!.traceId;
  const bySpan = new Map(spans.map((s) => [s.spanId, s]));
  const spanCalls: SpanCall[] = calls.flatMap((call) => {
    const span = bySpan.get(call.id);
    return span ? [{ call, spanId: span.spanId, start: ns(span.startTimeUnixNano), end: ns(span.endTimeUnixNano) }] : [];
  });
  if (spanCalls.length === 0) return { trace, rowIds: [], byTraceparent: 0, byContent: 0 };
  const from = Math.min(...spanCalls.map((c) => c.start)) - SLACK_S;
  const to = Math.max(...spanCalls.map((c) => c.end)) + SLACK_S;
  const { rows } = await pool().query<{ id: string; call: unknown; otel_trace_id: string | null; otel_span_id: string | null }>(
    `SELECT c.id::text AS id, c.call, c.otel_trace_id, c.otel_span_id
     FROM gateway_calls c JOIN projects p ON p.id = c.project_id
     WHERE p.name = $1 AND c.claimed_by IS NULL AND c.outcome = 'complete'
       AND (c.otel_trace_id = $2 OR (c.otel_trace_id IS NULL AND c.t BETWEEN $3 AND $4))
     ORDER BY c.id`,
    [project, otelTraceId, from, to],
  );
  if (rows.length === 0) return { trace, rowIds: [], byTraceparent: 0, byContent: 0 };
  // a stored call that does not parse (logged) is no candidate: it stays with its own run
  const candidates: GatewayCandidate[] = rows.flatMap((r) => {
    const call = storedOrNull(recordedCallSchema, r.call, () => `gateway call ${r.id}`);
    return call === null ? [] : [{ rowId: r.id, call, otelTraceId: r.otel_trace_id, otelSpanId: r.otel_span_id }];
  });
  const joins = joinCalls(otelTraceId, spanCalls, new Map(spans.map((s) => [s.spanId, s.parentSpanId])), candidates);
  if (joins.length === 0) return { trace, rowIds: [], byTraceparent: 0, byContent: 0 };
  const rowOf = new Map(candidates.map((c) => [c.rowId, c.call]));
  const merged = new Map(joins.map((j) => [spanCalls[j.callIndex]!.call.id, mergedCall(spanCalls[j.callIndex]!.call, rowOf.get(j.rowId)!)]));
  return {
    trace: { ...trace, calls: calls.map((c) => merged.get(c.id) ?? c) },
    rowIds: joins.map((j) => j.rowId),
    byTraceparent: joins.filter((j) => j.how === "traceparent").length,
    byContent: joins.filter((j) => j.how === "content").length,
  };
}

/**
 * Marks the joined gateway calls as held by the stored trace and puts their
 * runs back to `receiving` (idle already, so the next sweep stores them
 * again without these calls). Calls another trace claimed meanwhile stay
 * with it.
 */
export async function claimJoined(rowIds: readonly string[], traceId: string): Promise<void> {
  if (rowIds.length === 0) return;
  await pool().query(
    `WITH claimed AS (
       UPDATE gateway_calls SET claimed_by = $2 WHERE id = ANY($1::bigint[]) AND claimed_by IS NULL RETURNING project_id, run_key)
     UPDATE gateway_runs r SET status = 'receiving', next_attempt_at = NULL
     FROM (SELECT DISTINCT project_id, run_key FROM claimed) c
     WHERE r.project_id = c.project_id AND r.run_key = c.run_key AND r.status IN ('stored', 'failed')`,
    [rowIds, traceId],
  );
}
