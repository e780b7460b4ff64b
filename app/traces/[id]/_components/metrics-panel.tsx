import Link from "next/link";
import { METRIC_CATALOGUE, metricsOf, metricValue, SECTION_TITLES, type MetricSection, type TraceMetrics } from "@/lib/metrics";
import { formatDuration, formatValue, type Clock } from "@/lib/format";

interface Row {
  label: string;
  /** its name in the API and in a trace's own `metrics` object */
  key: string;
  value: number | boolean | string | null;
  explain: string;
}

const DOCS = "/docs/metrics";

/** Metrics measured on the trace's clock: shown as durations ("129 steps", "7 s"). */
const TIMES = new Set<string>([...METRIC_CATALOGUE.filter((m) => "time" in m && m.time).map((m) => m.key), "stop_t"]);

/** Each section's definition in docs/metrics.md. */
const ANCHORS: Record<MetricSection, string> = { e2: "e2-parallelism-work-and-span", e3: "e3-collaboration-quality", e4: "e4-protocol-overhead-errors-and-taint" };

/**
 * E1-E4 and stop diagnostics of one trace, each with a one-line explanation
 * and a link to its definition; what the trace itself reports (its `metrics`
 * object, SPEC.md section 1) beside the computed value, never instead of it.
 */
export function MetricsPanel({ metrics, reported = {}, clock = "seconds" }: { metrics: TraceMetrics; reported?: Record<string, unknown>; clock?: Clock }) {
  const { stop } = metrics;
  const sections: { title: string; anchor: string; rows: Row[] }[] = [
    {
      title: "E1 task success",
      anchor: "e1-task-success",
      rows: [{ label: "task success", key: "task_success", value: metrics.e1 === null ? null : metrics.e1 === 1 ? "success" : "failure", explain: "human labels, else the trace's reported metric, else its reward channel" }],
    },
    ...(["e2", "e3", "e4"] as const).map((section) => ({
      title: SECTION_TITLES[section],
      anchor: ANCHORS[section],
      rows: metricsOf(section).map((m) => ({ label: m.label, key: m.key, value: metricValue(metrics, m.key), explain: m.explain })),
    })),
    {
      title: "Stop diagnostics",
      anchor: "stop-diagnostics",
      rows: [
        { label: "verdict", key: "verdict", value: stop.verdict, explain: "premature, late, ok, or unknown without E1" },
        { label: "stop reason", key: "stop_reason", value: stop.stop_reason, explain: "as the stop decision gives it" },
        { label: "stop at t", key: "stop_t", value: stop.stop_t, explain: "time of the last stop decision" },
        { label: "tail events", key: "tail_events", value: stop.tail_events, explain: "events after the stop" },
        { label: "tail tokens", key: "tail_tokens", value: stop.tail_tokens, explain: "tokens spent after the stop" },
        { label: "wasted work", key: "wasted_work_ratio", value: stop.wasted_work_ratio, explain: "share of events that never reach the result" },
      ],
    },
  ];
  const shown = new Set(sections.flatMap((x) => x.rows.map((r) => r.key)));
  const others = Object.entries(reported).filter(([k]) => !shown.has(k));
  return (
    <section aria-label="Metrics" data-testid="metrics-panel">
      <h2 className="mb-2 text-lg font-semibold">
        Metrics <span className="text-xs font-normal text-slate-500">{metrics.version}</span>
      </h2>
      <div className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {sections.map((s) => (
          <div key={s.title} className="rounded border border-slate-200 bg-white p-3">
            <h3 className="mb-1 flex items-baseline justify-between text-sm font-semibold">
              {s.title}
              <Link href={`${DOCS}#${s.anchor}`} className="text-xs font-normal text-blue-700 hover:underline">definition</Link>
            </h3>
            <dl className="space-y-1 text-sm">
              {s.rows.map((r) => (
                <div key={r.label} className="flex items-baseline justify-between gap-3" data-testid={`metric-${r.label.replace(/ /g, "-")}`}>
                  <dt className="min-w-0">
                    <span className="text-slate-800">{r.label}</span>
                    <span className="block text-xs text-slate-500">{r.explain}</span>
                  </dt>
                  <dd className="shrink-0 text-right font-mono tabular-nums">
                    {TIMES.has(r.key) && typeof r.value === "number" ? formatDuration(r.value, clock) : formatValue(r.value)}
                    {r.key in reported && (
                      <span className="block font-sans text-xs text-slate-600" data-testid="reported-value">reported {formatReported(reported[r.key])}</span>
                    )}
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
        {others.length > 0 && (
          <div className="rounded border border-slate-200 bg-white p-3" data-testid="reported-metrics">
            <h3 className="mb-1 text-sm font-semibold">Reported by the trace</h3>
            <dl className="space-y-1 text-sm">
              {others.map(([k, v]) => (
                <div key={k} className="flex justify-between gap-3">
                  <dt className="break-all text-slate-800">{k}</dt>
                  <dd className="font-mono tabular-nums">{formatReported(v)}</dd>
                </div>
              ))}
            </dl>
          </div>
        )}
      </div>
    </section>
  );
}

function formatReported(v: unknown): string {
  return typeof v === "number" || typeof v === "boolean" || typeof v === "string" ? formatValue(v) : JSON.stringify(v);
}
