/**
 * The dashboard's ready-to-draw model: the JSON of `GET /api/dashboard` and
 * what app/dashboard hands its d3 charts. Every bar carries a key (see
 * bars.ts) that names the traces behind it.
 */
import type { SpecVersion } from "../metrics/types";
import type { MetricKind } from "./metrics";

export interface Bar {
  /** Names the traces behind the bar: `<metric>:<bin>`, `<metric>:null`, `e1:1`, `verdict:late`, ... */
  key: string;
  label: string;
  count: number;
  /** A bar of nulls: drawn apart and marked as such, never mixed with values. */
  null: boolean;
}

export interface Histogram {
  metric: string;
  section: "e2" | "e3" | "e4";
  label: string;
  kind: MetricKind;
  /** Bins in order, then (when any) the null bar. */
  bars: Bar[];
  /** bins + 1 edges; bar i (not null) spans [edges[i], edges[i + 1]), the last closed. */
  edges: number[];
  /** Traces with a value / without one. */
  values: number;
  nulls: number;
  /** Values outside the binned range (outliers beyond the 2nd-98th percentiles; lib/dashboard/bins.ts binRange), 0 when unclipped. */
  clipped: boolean;
  clipped_below: number;
  clipped_above: number;
  /** Tallest bar, for the y domain. */
  y_max: number;
}

export interface Rate {
  rate: number | null;
  low: number | null;
  high: number | null;
  /** Traces with a non-null E1. */
  n: number;
}

export interface TrendPoint {
  /** The bar key of the traces behind the point (`day:2026-11-29`, `policy:ckpt-1840`, `policy:`). */
  key: string;
  label: string;
  traces: number;
  e1: Rate;
  /** Mean of each metric over the point's non-null values (null when none). */
  means: Record<string, number | null>;
  /** Whether a line joins it to the previous point (not the "no policy_version" point: it is no step of the run). */
  joined: boolean;
}

export interface Trend {
  by: "day" | "policy";
  title: string;
  x_label: string;
  points: TrendPoint[];
}

export interface DashboardModel {
  version: SpecVersion;
  /** The filter in words. */
  scope: string;
  traces: number;
  e1: Rate & { successes: number; bars: Bar[] };
  histograms: Histogram[];
  verdicts: { bars: Bar[]; y_max: number };
  trends: { day: Trend; policy: Trend };
}
