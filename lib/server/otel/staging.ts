import "server-only";
import { replaceNul } from "@/lib/adapters/emit";
import type { OtlpSpan } from "@/lib/adapters/otlp-span";
import { inTransaction } from "../ingest/ingest";

/**
 * Stages received spans (otel_spans, keyed by trace and span id: a span
 * sent twice, as exporters do on retry, is kept once) and marks their
 * traces as receiving, with the time of the last span. A trace that was
 * stored, failed or is being finalised goes back to receiving: the next
 * finalisation maps all its spans again and replaces the stored trace.
 */
export async function stageSpans(spans: readonly OtlpSpan[]): Promise<{ traces: number; spans: number }> {
  if (spans.length === 0) return { traces: 0, spans: 0 };
  const unique = new Map<string, OtlpSpan>();
  const replaced = { count: 0 };
  // PostgreSQL's jsonb cannot hold U+0000: such characters become U+FFFD (as every adapter does)
  for (const span of spans) unique.set(`${span.traceId}/${span.spanId}`, replaceNul(span, replaced));
  const traces = new Map<string, { service: string | null; root: string | null }>();
  for (const span of unique.values()) {
    const seen = traces.get(span.traceId) ?? { service: null, root: null };
    const service = span.resource["service.name"];
    traces.set(span.traceId, {
      service: seen.service ?? (typeof service === "string" ? service : null),
      root: seen.root ?? (span.parentSpanId === undefined ? span.name : null),
    });
  }
  const ids = [...traces.keys()];
  await inTransaction(async (client) => {
    // one statement per table, rows in a fixed order, so that concurrent requests lock rows in the same order
    ids.sort();
    await client.query(
      `INSERT INTO otel_traces (trace_id, status, service, root_name, first_span_at, last_span_at)
       SELECT t, 'receiving', s, r, now(), now() FROM unnest($1::text[], $2::text[], $3::text[]) AS x(t, s, r)
       ON CONFLICT (trace_id) DO UPDATE SET status = 'receiving', last_span_at = now(), error = NULL,
         service = COALESCE(otel_traces.service, EXCLUDED.service), root_name = COALESCE(EXCLUDED.root_name, otel_traces.root_name)`,
      [ids, ids.map((id) => traces.get(id)!.service), ids.map((id) => traces.get(id)!.root)],
    );
    const rows = [...unique.values()].sort((a, b) => a.traceId.localeCompare(b.traceId) || a.spanId.localeCompare(b.spanId));
    await client.query(
      `INSERT INTO otel_spans (trace_id, span_id, span)
       SELECT * FROM unnest($1::text[], $2::text[], $3::jsonb[])
       ON CONFLICT (trace_id, span_id) DO UPDATE SET span = EXCLUDED.span, received_at = now()`,
      [rows.map((s) => s.traceId), rows.map((s) => s.spanId), rows.map((s) => JSON.stringify(s))],
    );
    await client.query(
      "UPDATE otel_traces t SET span_count = (SELECT count(*) FROM otel_spans s WHERE s.trace_id = t.trace_id) WHERE t.trace_id = ANY($1::text[])",
      [ids],
    );
  });
  return { traces: ids.length, spans: unique.size };
}
