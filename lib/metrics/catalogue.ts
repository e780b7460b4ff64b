/**
 * The one list of the per-trace E2-E4 values of SPEC.md section 4: their
 * names (the key is the name in the API, in a trace's own `metrics` object
 * and of the traces table's column), labels, kinds and one-line meanings.
 * The trace page's metric panel, the dashboard, the stored columns and the
 * aggregates of `GET /api/metrics` all read it.
 */
import type { TraceMetrics } from "./types";

export type MetricSection = "e2" | "e3" | "e4";

/** What the dashboard's bins are made for (lib/dashboard/bins.ts); `count` columns are int4, `boolean` ones boolean, the others float8. */
export type MetricKind = "count" | "real" | "unit" | "boolean";

export interface CatalogueMetric {
  key: string;
  section: MetricSection;
  /** as SPEC.md words it */
  label: string;
  kind: MetricKind;
  /** a span of time on the trace's own clock (steps or seconds) */
  time?: boolean;
  explain: string;
}

export const METRIC_CATALOGUE = [
  { key: "critical_steps", section: "e2", label: "critical steps", kind: "count", explain: "most events on one causal path" },
  { key: "step_parallelism", section: "e2", label: "step parallelism", kind: "real", explain: "events / critical steps (1 = fully sequential)" },
  { key: "busy_time", section: "e2", label: "busy time", kind: "real", time: true, explain: "sum of event durations" },
  { key: "makespan", section: "e2", label: "makespan", kind: "real", time: true, explain: "first start to last end" },
  { key: "speedup", section: "e2", label: "speedup", kind: "real", explain: "busy time / makespan" },
  { key: "max_concurrency", section: "e2", label: "max concurrency", kind: "count", explain: "most timed events running at one instant" },
  { key: "efficiency", section: "e2", label: "efficiency", kind: "real", explain: "speedup / max concurrency" },
  { key: "useful_agent_utilization", section: "e2", label: "useful agent utilization", kind: "unit", explain: "spawned agents that contributed to the result" },
  { key: "message_redundancy", section: "e3", label: "message redundancy", kind: "unit", explain: "share of messages repeating an earlier one" },
  { key: "dead_message_rate", section: "e3", label: "dead message rate", kind: "unit", explain: "share of messages that never reach the result" },
  { key: "aggregate_diversity", section: "e3", label: "aggregate diversity", kind: "unit", explain: "distinct agents feeding each aggregate" },
  { key: "protocol_overhead", section: "e4", label: "protocol overhead", kind: "unit", explain: "coordination share of tokens (or events)" },
  { key: "error_amplification", section: "e4", label: "error amplification", kind: "unit", explain: "share of events downstream of an error or safety event" },
  { key: "tainted_events", section: "e4", label: "tainted events", kind: "count", explain: "events reached by untrusted input" },
  { key: "terminal_tainted", section: "e4", label: "terminal tainted", kind: "boolean", explain: "untrusted input reaches the final event" },
] as const satisfies readonly CatalogueMetric[];

export type MetricKey = (typeof METRIC_CATALOGUE)[number]["key"];
export const METRIC_KEYS = METRIC_CATALOGUE.map((m) => m.key) as [MetricKey, ...MetricKey[]];

export const SECTION_TITLES = { e2: "E2 parallelism", e3: "E3 collaboration quality", e4: "E4 protocol overhead" } as const;

/** The catalogue's metrics of one section, in catalogue order. */
export function metricsOf(section: MetricSection): readonly (typeof METRIC_CATALOGUE)[number][] {
  return METRIC_CATALOGUE.filter((m) => m.section === section);
}

/** A metric's value in a trace's computed metrics. */
export function metricValue(metrics: Pick<TraceMetrics, MetricSection>, key: MetricKey): number | boolean | null {
  const values: Record<string, number | boolean | null> = { ...metrics.e2, ...metrics.e3, ...metrics.e4 };
  return values[key] ?? null;
}
