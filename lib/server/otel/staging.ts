import "server-only";
import type { OtlpSpan } from "@/lib/adapters/otlp-span";
import { replaceUnstorable } from "@/lib/trace/text";
import { ApiError } from "../errors";
import { inTransaction } from "../ingest/ingest";
import { pushTo } from "@/lib/util/group";

/**
 * Stages received spans (otel_spans, keyed by trace and span id: a span
 * sent twice, as exporters do on retry, is kept once) and marks their
 * traces as receiving, with the time of the last span. A trace that was
 * stored, failed or is being finalised goes back to receiving: the next
 * finalisation maps all its spans again and replaces the stored trace.
 */
export async function stageSpans(spans: readonly OtlpSpan[]): Promise<{ traces: number; spans: number; rejected: string[] }> {
  if (spans.length === 0) return { traces: 0, spans: 0, rejected: [] };
  // PostgreSQL cannot hold U+0000 or a lone surrogate: each becomes U+FFFD (SPEC.md section 1, as JSON ingest does)
  const clean = spans.map((span) => storable(span));
  try {
    return { ...(await stageBatch(clean)), rejected: [] };
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 400)) throw error;
  }
  // the database refused a value of some trace: stage trace by trace, so that the others' spans are kept
  const byTrace = new Map<string, OtlpSpan[]>();
  for (const span of clean) pushTo(byTrace, span.traceId, span);
  const result = { traces: 0, spans: 0, rejected: [] as string[] };
  for (const [traceId, own] of byTrace) {
    try {
      const staged = await stageBatch(own);
      result.traces += staged.traces;
      result.spans += staged.spans;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 400)) throw error;
      result.rejected.push(...own.map((span) => `trace ${traceId} span ${span.spanId}: ${error.message.slice(0, 200)}`));
    }
  }
  return result;
}

/** Every string and key with U+0000 and lone surrogates replaced by U+FFFD; iterative, so that no nesting overflows the stack. */
function storable(span: OtlpSpan): OtlpSpan {
  const text = JSON.stringify(span);
  // JSON.stringify writes a lone surrogate as a \udxxx escape and U+0000 as \u0000: the common case has neither
  if (!/\\u(?:0000|d[89a-f])/i.test(text)) return span;
  return JSON.parse(text, (_key, value: unknown) => {
    if (typeof value === "string") return replaceUnstorable(value);
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const entries = Object.entries(value).map(([k, v]) => [replaceUnstorable(k), v] as const);
      const out: Record<string, unknown> = {};
      for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  }) as OtlpSpan;
}

async function stageBatch(spans: readonly OtlpSpan[]): Promise<{ traces: number; spans: number }> {
  const unique = new Map<string, OtlpSpan>();
  for (const span of spans) unique.set(`${span.traceId}/${span.spanId}`, span);
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
