import "server-only";
import { reader } from "@/lib/server/db/read";
import { readPrepared } from "@/lib/server/db/prepared";
import { INTEGER_COLUMNS } from "./metrics";
import {
  binEdges,
  binRange,
  percentileOf,
  buildDashboard,
  DASHBOARD_METRICS,
  metricOf,
  type BarSelection,
  type BinCount,
  type Bins,
  type DashboardModel,
  type MetricStats,
  type TrendRow,
} from "@/lib/dashboard";
import { Prisma } from "@/lib/generated/prisma/client";
import { NO_JUDGES, type JudgeSelection } from "@/lib/judges/selection";
import { e1WithJudges } from "../judges/e1";
import { describeFilter, traceWhere, type TraceFilter } from "./trace-filter";
import { percentileCont, histogramValue } from "@/lib/metrics/sketch";
import { judgedE1, KIND, summaryGroups, summaryMetrics, summaryTotals, summaryWhere } from "../summaries/read";
import { pushTo } from "@/lib/util/group";

/**
 * The dashboard's numbers, in the SQL style of metrics.ts: over the stored
 * per-trace metric columns, every value a bound parameter, column names from
 * the fixed list of lib/dashboard. From the summaries where the filter is on
 * their grain, else one scan (dashboardScan).
 */
const column = (key: string) => (metricOf(key)?.kind === "boolean" ? Prisma.raw(`(t.${key})::int`) : Prisma.raw(`t.${key}`));

/** `judges`: whose trace-level task_success values decide E1 where no person labelled it (SPEC.md section 5); E1 only. */
export async function dashboardModel(filter: TraceFilter, judges: JudgeSelection = NO_JUDGES): Promise<DashboardModel> {
  const cells = summaryWhere(filter);
  if (cells !== null) return dashboardFromSummaries(filter, cells, judges);
  return dashboardScan(filter, judges);
}

/** A metric's column in the scan's rows (`f`, below): `m<i>` in DASHBOARD_METRICS order. */
const SCAN_COLUMNS = DASHBOARD_METRICS.map((m, i) => ({ ...m, name: `m${i}`, integer: INTEGER_COLUMNS.has(m.key) }));
/** GROUPING(m0, ..., m<k>) of the set that groups by metric i alone: every bit set but i's (the first column is the highest bit). */
const METRIC_OF_MASK = new Map(SCAN_COLUMNS.map((_, i) => [(2 ** SCAN_COLUMNS.length - 1) ^ (2 ** (SCAN_COLUMNS.length - 1 - i)), i]));
/** The scan's row kinds (`part`): the rollup's GROUPING() masks of a day's, a checkpoint's and a verdict's row; then the metrics' values. */
const PART_DAY = 3;
const PART_POLICY = 5;
const PART_VERDICT = 6;
const PART_VALUES = 7;

/**
 * The scan of the traces a filter selects, as one statement that reads each
 * row once: the rows' columns (materialised once), then from them (1) the
 * counts, E1 and each metric's count and exact numeric sum per (day,
 * checkpoint, verdict), rolled up in one aggregate into the day and
 * checkpoint trends (the exact means, as safeMean gives them) and the
 * verdict counts, ordered by one window, and (2) each metric's distinct
 * values with their counts (one grouping set per metric, one aggregate).
 * The day is kept as a date per row and formatted per group. From (2) this
 * module takes min, max, the 2nd and 98th percentiles (percentile_cont's
 * rule, in the same float arithmetic) and, once the bins are known, each
 * histogram's counts (width_bucket's rule, bucketIndex): one round trip, a
 * prepared statement.
 */
export function dashboardScanSql(filter: TraceFilter, judges: JudgeSelection): Prisma.Sql {
  const where = traceWhere(filter);
  const { join, e1 } = e1WithJudges(judges);
  return Prisma.sql`${SCAN_ROWS}${e1} AS e1, ${SCAN_COLS} FROM traces t ${join} ${where})${SCAN_REST}`;
}

/** The statement's fixed parts around the filter (built once: they depend on the metric list alone). */
const SCAN_ROWS = Prisma.raw(`
    WITH f AS MATERIALIZED (
      SELECT (t.created_at AT TIME ZONE 'UTC')::date AS day, t.metadata->>'policy_version' AS policy, t.verdict::text AS verdict, t.created_at, `);
const SCAN_COLS = Prisma.raw(SCAN_COLUMNS.map((m) => `${m.kind === "boolean" ? `(t.${m.key})::int` : `t.${m.key}`} AS ${m.name}`).join(", "));
const SCAN_REST = (() => {
  const sums = SCAN_COLUMNS.map((m) => `${m.integer ? `sum(${m.name})` : `sum(${m.name}::numeric)`} AS s${m.name}, count(${m.name}) AS n${m.name}`).join(", ");
  const means = `ARRAY[${SCAN_COLUMNS.map((m) => `(trim_scale(sum(s${m.name})::numeric) / nullif(sum(n${m.name}), 0))::text`).join(", ")}]`;
  const names = SCAN_COLUMNS.map((m) => m.name).join(", ");
  // the rollup's sets: GROUPING(key, policy, verdict) is 3 for a day's row, 5 for a checkpoint's, 6 for a verdict's
  return Prisma.raw(`,
    g AS (SELECT day, policy, verdict, count(*) AS traces, count(e1) AS e1_n, sum(e1) AS e1_s, min(created_at) AS first_at, ${sums}
      FROM f GROUP BY 1, 2, 3),
    r AS (SELECT GROUPING(to_char(day, 'YYYY-MM-DD'), policy, verdict)::int AS part, to_char(day, 'YYYY-MM-DD') AS key, policy, verdict,
        sum(traces)::int AS traces, sum(e1_n)::int AS e1_n, coalesce(sum(e1_s), 0)::int AS e1_successes, ${means} AS means, min(first_at) AS first_at
      FROM g GROUP BY GROUPING SETS ((to_char(day, 'YYYY-MM-DD')), (policy), (verdict)))
    SELECT part, coalesce(key, policy, verdict) AS key, traces, e1_n, e1_successes, CASE WHEN part <> ${PART_VERDICT} THEN means END AS means,
      row_number() OVER (PARTITION BY part ORDER BY key, policy IS NULL, first_at, policy)::int AS ord, NULL::float8 AS v
    FROM r
    UNION ALL
    SELECT ${PART_VALUES}, NULL, count(*)::int, 0, 0, NULL, GROUPING(${names})::int, coalesce(${SCAN_COLUMNS.map((m) => `${m.name}::float8`).join(", ")})
    FROM f GROUP BY GROUPING SETS (${SCAN_COLUMNS.map((m) => `(${m.name})`).join(", ")})`);
})();

async function dashboardScan(filter: TraceFilter, judges: JudgeSelection): Promise<DashboardModel> {
  return dashboardOfScan(filter, await readPrepared<ScanRow>(dashboardScanSql(filter, judges)));
}

/** The model from the scan's rows (exported for the bench, which times it apart). */
export function dashboardOfScan(filter: TraceFilter, rows: readonly ScanRow[]): DashboardModel {
  const days: { ord: number; row: TrendRow }[] = [];
  const policies: { ord: number; row: TrendRow }[] = [];
  const verdicts: { verdict: string | null; n: number }[] = [];
  const values = new Map<number, { v: number; n: number }[]>();
  let traces = 0;
  let e1n = 0;
  let e1successes = 0;
  for (const r of rows) {
    if (r.part === PART_VALUES) {
      // ord: the GROUPING() mask of the set, every metric's bit set but its own; a null value is the metric's nulls
      if (r.v === null) continue;
      const i = METRIC_OF_MASK.get(r.ord)!;
      pushTo(values, i, { v: r.v, n: r.traces });
      continue;
    }
    if (r.part === PART_VERDICT) {
      verdicts.push({ verdict: r.key, n: r.traces });
      continue;
    }
    const row: TrendRow = {
      key: r.key,
      traces: r.traces,
      e1_n: r.e1_n,
      e1_successes: r.e1_successes,
      means: Object.fromEntries(SCAN_COLUMNS.map((m, i) => [m.key, r.means![i] === null || r.means![i] === undefined ? null : Number(r.means![i])])),
    };
    if (r.part === PART_POLICY) policies.push({ ord: r.ord, row });
    else if (r.part === PART_DAY) {
      days.push({ ord: r.ord, row });
      traces += r.traces;
      e1n += r.e1_n;
      e1successes += r.e1_successes;
    }
  }
  days.sort((a, b) => a.ord - b.ord);
  policies.sort((a, b) => a.ord - b.ord);
  const stats: Record<string, MetricStats> = {};
  const bins: Record<string, Bins> = {};
  const counts: BinCount[] = [];
  SCAN_COLUMNS.forEach((m, i) => {
    const distinct = (values.get(i) ?? []).sort((a, b) => a.v - b.v);
    const vs = distinct.map((d) => d.v);
    const ns = distinct.map((d) => d.n);
    const n = ns.reduce((a, b) => a + b, 0);
    const min = vs.length > 0 ? vs[0]! : null;
    const max = vs.length > 0 ? vs.at(-1)! : null;
    stats[m.key] = { min, max, values: n, nulls: traces - n };
    if (min === null || max === null) {
      bins[m.key] = binEdges(m.kind, null);
      return;
    }
    const { range, clipped } = binRange({ min, max }, percentileOf(vs, ns, n, 0.02), percentileOf(vs, ns, n, 0.98));
    const b = { ...binEdges(m.kind, range), ...(clipped && { clipped: true }) };
    bins[m.key] = b;
    if (b.edges.length <= 1) return;
    const byBucket = new Map<number, number>();
    vs.forEach((v, k) => {
      const bucket = bucketIndex(v, b);
      byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + ns[k]!);
    });
    for (const [bin, c] of byBucket) counts.push({ metric: m.key, bin, n: c });
  });
  return buildDashboard({
    scope: describeFilter(filter),
    traces,
    e1_n: e1n,
    e1_successes: e1successes,
    stats,
    bins,
    counts,
    verdicts,
    days: days.map((d) => d.row),
    policies: policies.map((p) => p.row),
  });
}

export interface ScanRow {
  part: number;
  key: string | null;
  traces: number;
  e1_n: number;
  e1_successes: number;
  means: (string | null)[] | null;
  ord: number;
  v: number | null;
}


/**
 * The dashboard from the metric summaries (lib/server/summaries): counts,
 * E1 (with judges: corrected by the traces judges labelled), verdicts, min,
 * max and the trends' means exactly as the scan gives them; the 2nd and 98th percentiles and the histograms' counts from the
 * merged fine bins (lib/metrics/sketch.ts, docs/scale.md "Summaries").
 */
async function dashboardFromSummaries(filter: TraceFilter, cells: Prisma.Sql, judges: JudgeSelection): Promise<DashboardModel> {
  const [totals, metrics, days, policies, judged] = await Promise.all([
    summaryTotals(cells),
    summaryMetrics(cells),
    summaryGroups(cells, "day"),
    summaryGroups(cells, "policy"),
    judgedE1(filter, judges),
  ]);
  for (const c of judged) {
    for (const row of [totals, days.find((d) => d.key === c.day), policies.find((p) => p.key === c.policy)]) {
      if (!row) continue;
      row.e1_n += c.n;
      row.e1_successes += c.successes;
    }
  }
  const stats: Record<string, MetricStats> = {};
  const bins: Record<string, Bins> = {};
  const counts: BinCount[] = [];
  for (const m of DASHBOARD_METRICS) {
    const s = metrics.get(m.key)!;
    const kind = KIND.get(m.key)!;
    stats[m.key] = { min: s.min, max: s.max, values: s.n, nulls: totals.traces - s.n };
    if (s.min === null || s.max === null) {
      bins[m.key] = binEdges(m.kind, null);
      continue;
    }
    const full = { min: s.min, max: s.max };
    const { range, clipped } = binRange(full, percentileCont(kind, s.bins, s.n, 0.02, full), percentileCont(kind, s.bins, s.n, 0.98, full));
    const b = { ...binEdges(m.kind, range), ...(clipped && { clipped: true }) };
    bins[m.key] = b;
    if (b.edges.length <= 1) continue;
    const byBucket = new Map<number, number>();
    for (const bin of s.bins) {
      const bucket = bucketIndex(histogramValue(kind, bin.key, full), b);
      byBucket.set(bucket, (byBucket.get(bucket) ?? 0) + bin.n);
    }
    for (const [bin, n] of byBucket) counts.push({ metric: m.key, bin, n });
  }
  return buildDashboard({
    scope: describeFilter(filter),
    traces: totals.traces,
    e1_n: totals.e1_n,
    e1_successes: totals.e1_successes,
    stats,
    bins,
    counts,
    verdicts: totals.verdicts,
    days,
    policies,
  });
}

/** bucketOf below, in JavaScript: the lower edges at most v (width_bucket), or past the last edge of a clipped range. */
function bucketIndex(v: number, bins: Bins): number {
  if (bins.clipped && v > bins.edges.at(-1)!) return bins.edges.length;
  let n = 0;
  for (let i = 0; i < bins.edges.length - 1; i++) if (bins.edges[i]! <= v) n++;
  return n;
}

/**
 * SQL's bucket of a value for lower edges [e0 .. e(n-1)]: i when e(i-1) <= v < e(i), n for v >= e(n-1)
 * (the last bin is closed); on a clipped range 0 below e0 and n + 1 above the last edge.
 */
function bucketOf(key: string, bins: Bins): Prisma.Sql {
  const bucket = Prisma.sql`width_bucket(${column(key)}::float8, ${bins.edges.slice(0, -1)}::float8[])`;
  if (!bins.clipped) return bucket;
  return Prisma.sql`CASE WHEN ${column(key)}::float8 > ${bins.edges.at(-1)!}::float8 THEN ${bins.edges.length}::int ELSE ${bucket} END`;
}

export interface BarTrace {
  trace_id: string;
  task_id: string;
  system: string | null;
  group_id: string | null;
  policy_version: string | null;
  e1: number | null;
  verdict: string | null;
  created_at: string;
  /** The bar's metric value, for histogram bars. */
  value: number | null;
}

/** The SQL condition of a bar (histogram bins reuse the counting expression, so list and count agree). */
function barCondition(bar: BarSelection, model: DashboardModel): Prisma.Sql | null {
  switch (bar.kind) {
    case "bin": {
      const h = model.histograms.find((x) => x.metric === bar.metric);
      const edges = h?.edges ?? [];
      if (bar.index >= edges.length - 1) return null;
      return Prisma.sql`${column(bar.metric)} IS NOT NULL AND ${bucketOf(bar.metric, { edges, labels: [], clipped: h?.clipped === true })} = ${bar.index + 1}`;
    }
    case "null":
      return Prisma.sql`${column(bar.metric)} IS NULL`;
    case "e1":
      return bar.value === null ? Prisma.sql`t.e1 IS NULL` : Prisma.sql`t.e1 = ${bar.value}`;
    case "verdict":
      return bar.verdict === null ? Prisma.sql`t.verdict IS NULL` : Prisma.sql`t.verdict = ${bar.verdict}::"Verdict"`;
    case "day":
      return Prisma.sql`to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') = ${bar.day}`;
    case "policy":
      return bar.version === null ? Prisma.sql`t.metadata->>'policy_version' IS NULL` : Prisma.sql`t.metadata->>'policy_version' = ${bar.version}`;
  }
}

/** The traces behind a bar, newest first, at most `limit` (and how many there are); null for a bar the model does not have. */
export async function barTraces(filter: TraceFilter, bar: BarSelection, model: DashboardModel, limit = 100): Promise<{ total: number; traces: BarTrace[] } | null> {
  const condition = barCondition(bar, model);
  if (condition === null) return null;
  const where = traceWhere(filter);
  const valueColumn = bar.kind === "bin" || bar.kind === "null" ? Prisma.sql`${column(bar.metric)}::float8` : Prisma.sql`NULL::float8`;
  const rows = await (await reader()).prisma.$queryRaw<(Omit<BarTrace, "created_at"> & { created_at: Date; total: number })[]>`
    SELECT t.trace_id, t.task_id, t.system, t.group_id, t.metadata->>'policy_version' AS policy_version, t.e1, t.verdict::text AS verdict,
           t.created_at, ${valueColumn} AS value, count(*) OVER ()::int AS total
    FROM (SELECT t.* FROM traces t ${where}) t WHERE ${condition}
    ORDER BY t.created_at DESC, t.id DESC LIMIT ${limit}`;
  const total = rows[0]?.total ?? 0;
  return { total: Number(total), traces: rows.map(({ total: _total, created_at, ...r }) => ({ ...r, e1: r.e1 === null ? null : Number(r.e1), created_at: created_at.toISOString() })) };
}
