/**
 * The per-trace values the dashboard draws a distribution of: every E2-E4
 * value of SPEC.md section 4, as lib/metrics/catalogue.ts lists them (the
 * key is the traces table's column). The kind decides the bins (see
 * bins.ts); times are in seconds here (the dashboard mixes traces).
 */
import { METRIC_CATALOGUE, type MetricKey, type MetricKind, type MetricSection } from "../metrics/catalogue";

export { METRIC_KEYS, SECTION_TITLES, type MetricKey, type MetricKind } from "../metrics/catalogue";

export interface DashboardMetric {
  key: MetricKey;
  section: MetricSection;
  label: string;
  kind: MetricKind;
}

export const DASHBOARD_METRICS: readonly DashboardMetric[] = METRIC_CATALOGUE.map((m) => ({
  key: m.key,
  section: m.section,
  label: "time" in m && m.time ? `${m.label} (s)` : m.label,
  kind: m.kind,
}));

export function metricOf(key: string): DashboardMetric | undefined {
  return DASHBOARD_METRICS.find((m) => m.key === key);
}
