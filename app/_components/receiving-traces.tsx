import Link from "next/link";
import type { ReceivingTrace } from "@/lib/server/otel/receiving";
import { counted } from "@/lib/format";

/**
 * OTLP traces not stored in their latest form (docs/otlp.md): spans still
 * arriving, being finalised, or failed to map. Shown above the trace list so
 * that a trace in progress is never taken for a complete one.
 */
export function ReceivingTraces({ traces }: { traces: ReceivingTrace[] }) {
  if (traces.length === 0) return null;
  return (
    <section className="rounded border border-sky-200 bg-sky-50 p-3 text-sm" data-testid="receiving-traces">
      <h2 className="font-medium text-sky-900">Receiving over OpenTelemetry</h2>
      <p className="text-xs text-sky-800">
        Each trace is stored {traces[0]!.idle_seconds} s after its last span (or on <code>POST /api/otel/v1/flush</code>); until then it is incomplete.
      </p>
      <ul className="mt-2 space-y-1">
        {traces.map((t) => (
          <li key={t.trace_id} className="flex flex-wrap items-baseline gap-x-3" data-testid="receiving-trace">
            <ReceivingBadge status={t.status} />
            <Link href={`/traces/${encodeURIComponent(t.trace_id)}`} className="font-mono text-xs text-blue-700 hover:underline">{t.trace_id}</Link>
            <span>{t.service ?? "unknown service"}{t.root_name ? ` · ${t.root_name}` : ""}</span>
            <span className="text-xs text-slate-600">{counted(t.spans, "span")}, last at {t.last_span_at.replace("T", " ").slice(0, 19)}</span>
            {t.finalised_at && <span className="text-xs text-slate-600">(an earlier version is stored)</span>}
            {t.error && <span className="text-xs text-rose-800">{t.error}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ReceivingBadge({ status }: { status: ReceivingTrace["status"] }) {
  const style = status === "failed" ? "bg-rose-100 text-rose-800" : "bg-sky-100 text-sky-800";
  return <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${style}`}>{status}</span>;
}
