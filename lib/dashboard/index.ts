/**
 * The metrics dashboard, pure: SQL results in, ready-to-draw model out.
 *
 *   ranges per metric -> binEdges -> (SQL counts per bin) -> buildDashboard
 *   per-day / per-policy rows -> dayTrend / policyTrend (Wilson per point)
 *   bar keys (bars.ts) name the traces behind any bar
 */
export * from "./types";
export * from "./metrics";
export { binEdges, binIndex, binRange, niceStep, percentileOf, type Bins } from "./bins";
export { buildDashboard, buildHistogram, dayTrend, policyTrend, rateOf, type DashboardRaw, type MetricStats, type BinCount, type TrendRow } from "./build";
export { parseBar, describeBar, type BarSelection } from "./bars";
