/**
 * The per-trace values the dashboard draws a distribution of: every E2-E4
 * value of SPEC.md section 4, each a column of the traces table (the key is
 * the column's name). The kind decides the bins (see bins.ts).
 */
export type MetricKind = "count" | "real" | "unit" | "boolean";

export interface DashboardMetric {
  key: string;
  section: "e2" | "e3" | "e4";
  label: string;
  kind: MetricKind;
}

export const DASHBOARD_METRICS = [
  { key: "critical_steps", section: "e2", label: "critical steps", kind: "count" },
  { key: "step_parallelism", section: "e2", label: "step parallelism", kind: "real" },
  { key: "busy_time", section: "e2", label: "busy time (s)", kind: "real" },
  { key: "makespan", section: "e2", label: "makespan (s)", kind: "real" },
  { key: "speedup", section: "e2", label: "speedup", kind: "real" },
  { key: "max_concurrency", section: "e2", label: "max concurrency", kind: "count" },
  { key: "efficiency", section: "e2", label: "efficiency", kind: "real" },
  { key: "useful_agent_utilization", section: "e2", label: "useful agent utilization", kind: "unit" },
  { key: "message_redundancy", section: "e3", label: "message redundancy", kind: "unit" },
  { key: "dead_message_rate", section: "e3", label: "dead message rate", kind: "unit" },
  { key: "aggregate_diversity", section: "e3", label: "aggregate diversity", kind: "unit" },
  { key: "protocol_overhead", section: "e4", label: "protocol overhead", kind: "unit" },
  { key: "error_amplification", section: "e4", label: "error amplification", kind: "unit" },
  { key: "tainted_events", section: "e4", label: "tainted events", kind: "count" },
  { key: "terminal_tainted", section: "e4", label: "terminal tainted", kind: "boolean" },
] as const satisfies readonly DashboardMetric[];

export type MetricKey = (typeof DASHBOARD_METRICS)[number]["key"];
export const METRIC_KEYS = DASHBOARD_METRICS.map((m) => m.key) as [MetricKey, ...MetricKey[]];

export function metricOf(key: string): DashboardMetric | undefined {
  return DASHBOARD_METRICS.find((m) => m.key === key);
}

export const SECTION_TITLES = { e2: "E2 parallelism", e3: "E3 collaboration quality", e4: "E4 protocol overhead" } as const;
