/**
 * From the numbers the database gives (per-metric ranges and bin counts,
 * verdict counts, per-day and per-checkpoint rows) to the ready-to-draw
 * dashboard model. Pure: lib/server/queries/dashboard.ts runs the SQL.
 */
import { SPEC_VERSION, VERDICTS } from "../metrics/types";
import { wilsonInterval } from "../stats/wilson";
import { binKey, dayKey, nullKey, policyKey } from "./bars";
import type { Bins } from "./bins";
import { DASHBOARD_METRICS } from "./metrics";
import { pushTo } from "../util/group";
import type { Bar, DashboardModel, Histogram, Rate, Trend, TrendPoint } from "./types";

export interface MetricStats {
  min: number | null;
  max: number | null;
  /** Traces with a value / without one. */
  values: number;
  nulls: number;
}

/** A count from SQL: `bin` is width_bucket's 1-based bucket. */
export interface BinCount {
  metric: string;
  bin: number;
  n: number;
}

export interface TrendRow {
  /** YYYY-MM-DD, or the policy_version (null: none). */
  key: string | null;
  traces: number;
  e1_n: number;
  e1_successes: number;
  means: Record<string, number | null>;
}

export interface DashboardRaw {
  scope: string;
  traces: number;
  e1_n: number;
  e1_successes: number;
  stats: Record<string, MetricStats>;
  bins: Record<string, Bins>;
  counts: BinCount[];
  verdicts: { verdict: string | null; n: number }[];
  /** Ascending by day. */
  days: TrendRow[];
  /** In checkpoint order (first trace of each first). */
  policies: TrendRow[];
}

export function rateOf(successes: number, n: number): Rate {
  const w = wilsonInterval(successes, n);
  return w ? { rate: w.rate, low: w.low, high: w.high, n } : { rate: null, low: null, high: null, n };
}

export function buildHistogram(metric: (typeof DASHBOARD_METRICS)[number], bins: Bins, stats: MetricStats, counts: readonly BinCount[]): Histogram {
  const byBin = new Map(counts.filter((c) => c.metric === metric.key).map((c) => [c.bin - 1, c.n]));
  // SQL bucket 0 is below the first edge; bins + 1 above the last (only when the range is clipped)
  const bars: Bar[] = bins.labels.map((label, i) => ({ key: binKey(metric.key, i), label, count: byBin.get(i) ?? 0, null: false }));
  bars.push({ key: nullKey(metric.key), label: "null", count: stats.nulls, null: true });
  return {
    metric: metric.key,
    section: metric.section,
    label: metric.label,
    kind: metric.kind,
    bars,
    edges: bins.edges,
    values: stats.values,
    nulls: stats.nulls,
    clipped: bins.clipped === true,
    clipped_below: byBin.get(-1) ?? 0,
    clipped_above: byBin.get(bins.labels.length) ?? 0,
    y_max: Math.max(0, ...bars.map((b) => b.count)),
  };
}

function point(row: TrendRow, key: string, label: string, joined: boolean): TrendPoint {
  return { key, label, traces: row.traces, e1: rateOf(row.e1_successes, row.e1_n), means: row.means, joined };
}

const EMPTY_MEANS = Object.fromEntries(DASHBOARD_METRICS.map((m) => [m.key, null]));

/** One point per day from the first to the last; a day without traces is an explicit empty point (a gap in the lines). */
export function dayTrend(rows: readonly TrendRow[]): Trend {
  const points: TrendPoint[] = [];
  const byDay = new Map(rows.map((r) => [r.key!, r]));
  if (rows.length > 0) {
    const last = Date.parse(`${rows.at(-1)!.key!}T00:00:00Z`);
    for (let t = Date.parse(`${rows[0]!.key!}T00:00:00Z`); t <= last; t += 86_400_000) {
      const day = new Date(t).toISOString().slice(0, 10);
      const row = byDay.get(day) ?? { key: day, traces: 0, e1_n: 0, e1_successes: 0, means: EMPTY_MEANS };
      points.push(point(row, dayKey(day), day, points.length > 0));
    }
  }
  return { by: "day", title: "By day of upload (created_at, UTC)", x_label: "day", points };
}

/** One point per policy_version in checkpoint order; traces without one come last, named as such. */
export function policyTrend(rows: readonly TrendRow[]): Trend {
  const named = rows.filter((r) => r.key !== null);
  const none = rows.filter((r) => r.key === null);
  const points = [...named, ...none].map((r, i) => point(r, policyKey(r.key), r.key ?? "no policy_version", i > 0 && r.key !== null));
  return { by: "policy", title: "By checkpoint (metadata.policy_version)", x_label: "policy_version", points };
}

export function buildDashboard(raw: DashboardRaw): DashboardModel {
  const rate = rateOf(raw.e1_successes, raw.e1_n);
  const e1Bars: Bar[] = [
    { key: "e1:1", label: "success", count: raw.e1_successes, null: false },
    { key: "e1:0", label: "failure", count: raw.e1_n - raw.e1_successes, null: false },
    { key: "e1:null", label: "unknown", count: raw.traces - raw.e1_n, null: true },
  ];
  const verdictCount = new Map(raw.verdicts.map((v) => [v.verdict, v.n]));
  const verdictBars: Bar[] = VERDICTS.map((v) => ({ key: `verdict:${v}`, label: v, count: verdictCount.get(v) ?? 0, null: false }));
  const noVerdict = verdictCount.get(null) ?? 0;
  const countsOf = new Map<string, BinCount[]>();
  for (const c of raw.counts) pushTo(countsOf, c.metric, c);
  if (noVerdict > 0) verdictBars.push({ key: "verdict:none", label: "none", count: noVerdict, null: true });
  return {
    version: SPEC_VERSION,
    scope: raw.scope,
    traces: raw.traces,
    e1: { ...rate, successes: raw.e1_successes, bars: e1Bars },
    histograms: DASHBOARD_METRICS.map((m) =>
      buildHistogram(m, raw.bins[m.key] ?? { edges: [], labels: [] }, raw.stats[m.key] ?? { min: null, max: null, values: 0, nulls: raw.traces }, countsOf.get(m.key) ?? []),
    ),
    verdicts: { bars: verdictBars, y_max: Math.max(0, ...verdictBars.map((b) => b.count)) },
    trends: { day: dayTrend(raw.days), policy: policyTrend(raw.policies) },
  };
}
