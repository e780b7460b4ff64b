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
import { NumericSum } from "@/lib/stats/numeric";

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

/** The scan's metric columns, in DASHBOARD_METRICS order: `a<i>`, each cell's values of metric i. */
const SCAN_COLUMNS = DASHBOARD_METRICS.map((m, i) => ({ ...m, name: `a${i}`, integer: INTEGER_COLUMNS.has(m.key) }));
// each cell's non-null values of a metric as float8send's 8 bytes each, one after the other (a bytea: read back exactly, and without printing and parsing a decimal per value)
const SCAN_ARRAYS = Prisma.raw(SCAN_COLUMNS.map((m) => `string_agg(float8send(${m.kind === "boolean" ? `(t.${m.key})::int::float8` : `t.${m.key}::float8`}), ''::bytea) AS ${m.name}`).join(", "));
const SCAN_NAMES = Prisma.raw(SCAN_COLUMNS.map((m) => `g.${m.name}`).join(", "));

/**
 * The scan of the traces a filter selects, as one statement that reads each
 * row once, one aggregate: per (day, checkpoint, verdict) cell its traces,
 * E1 and each metric's values (float8send's bytes, a bytea each), the cells ordered by their
 * checkpoint's first trace (then its name, "none" last), so the checkpoints
 * come in the order of the trends. The rest is arithmetic, here
 * (dashboardOfScan): the day and checkpoint trends with their exact means
 * (lib/stats/numeric.ts: the numeric means safeMean gives, to the bit),
 * the verdict counts, and per metric its values sorted: min, max, the 2nd
 * and 98th percentiles (percentile_cont's rule, in the same float
 * arithmetic) and, once the bins are known, each histogram's counts
 * (width_bucket's rule, bucketIndex). One round trip, a prepared statement.
 */
export function dashboardScanSql(filter: TraceFilter, judges: JudgeSelection): Prisma.Sql {
  const where = traceWhere(filter);
  const { join, e1 } = e1WithJudges(judges);
  return Prisma.sql`
    SELECT to_char(g.day, 'YYYY-MM-DD') AS day, g.policy, g.verdict, g.traces, g.e1_n, g.e1_successes, ${SCAN_NAMES}
    FROM (SELECT (t.created_at AT TIME ZONE 'UTC')::date AS day, t.metadata->>'policy_version' AS policy, t.verdict::text AS verdict,
            count(*)::int AS traces, count(${e1})::int AS e1_n, coalesce(sum(${e1}), 0)::int AS e1_successes, min(t.created_at) AS first_at, ${SCAN_ARRAYS}
          FROM traces t ${join} ${where} GROUP BY 1, 2, 3) g
    ORDER BY g.policy IS NULL, min(g.first_at) OVER (PARTITION BY g.policy), g.policy`;
}

async function dashboardScan(filter: TraceFilter, judges: JudgeSelection): Promise<DashboardModel> {
  return dashboardOfScan(filter, await readPrepared<ScanRow>(dashboardScanSql(filter, judges)));
}

/** A day's or a checkpoint's running totals: its traces, E1, and per metric the exact sum and count of its values. */
interface Trend {
  key: string | null;
  traces: number;
  e1_n: number;
  e1_successes: number;
  sums: NumericSum[];
  counts: number[];
}

const trendOf = (key: string | null): Trend => ({ key, traces: 0, e1_n: 0, e1_successes: 0, sums: SCAN_COLUMNS.map(() => new NumericSum()), counts: SCAN_COLUMNS.map(() => 0) });

const trendRow = (t: Trend): TrendRow => ({
  key: t.key,
  traces: t.traces,
  e1_n: t.e1_n,
  e1_successes: t.e1_successes,
  means: Object.fromEntries(SCAN_COLUMNS.map((m, i) => [m.key, t.sums[i]!.mean(t.counts[i]!)])),
});

/** The model from the scan's cells. */
function dashboardOfScan(filter: TraceFilter, rows: readonly ScanRow[]): DashboardModel {
  const days = new Map<string, Trend>();
  const policies = new Map<string | null, Trend>();
  const verdictCounts = new Map<string | null, number>();
  const bytes = (r: ScanRow, i: number) => (r as unknown as Record<string, Buffer | null>)[SCAN_COLUMNS[i]!.name] ?? null;
  // each metric's values from every cell, then sorted
  const values = SCAN_COLUMNS.map((_, i) => new Float64Array(rows.reduce((n, r) => n + (bytes(r, i)?.length ?? 0) / 8, 0)));
  const filled = SCAN_COLUMNS.map(() => 0);
  let traces = 0;
  let e1n = 0;
  let e1successes = 0;
  for (const r of rows) {
    const day = days.get(r.day) ?? days.set(r.day, trendOf(r.day)).get(r.day)!;
    const policy = policies.get(r.policy) ?? policies.set(r.policy, trendOf(r.policy)).get(r.policy)!;
    for (const t of [day, policy]) {
      t.traces += r.traces;
      t.e1_n += r.e1_n;
      t.e1_successes += r.e1_successes;
    }
    verdictCounts.set(r.verdict, (verdictCounts.get(r.verdict) ?? 0) + r.traces);
    traces += r.traces;
    e1n += r.e1_n;
    e1successes += r.e1_successes;
    for (let i = 0; i < SCAN_COLUMNS.length; i++) {
      const b = bytes(r, i);
      if (b === null) continue;
      const sum = new NumericSum();
      const all = values[i]!;
      const integer = SCAN_COLUMNS[i]!.integer;
      let at = filled[i]!;
      for (let k = 0; k < b.length; k += 8) {
        const v = b.readDoubleBE(k);
        all[at++] = v;
        if (integer) sum.add(v, 0);
        else sum.addFloat(v);
      }
      const n = at - filled[i]!;
      filled[i] = at;
      for (const t of [day, policy]) {
        t.sums[i]!.addAll(sum);
        t.counts[i]! += n;
      }
    }
  }
  const stats: Record<string, MetricStats> = {};
  const bins: Record<string, Bins> = {};
  const counts: BinCount[] = [];
  SCAN_COLUMNS.forEach((m, i) => {
    // the distinct values ascending, each with its count (-0 and 0 one value, as in SQL)
    const sorted = values[i]!.sort();
    const vs: number[] = [];
    const ns: number[] = [];
    for (let k = 0; k < sorted.length; k++) {
      const v = sorted[k]!;
      if (k > 0 && v === sorted[k - 1]) ns[ns.length - 1]!++;
      else {
        vs.push(v);
        ns.push(1);
      }
    }
    const n = sorted.length;
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
    // bucketIndex of each value, in one walk: the values ascend, and so do the edges (the lower edges at most v are a prefix)
    const last = b.edges.length - 1;
    let below = 0;
    let run: BinCount | null = null;
    for (let k = 0; k < vs.length; k++) {
      const v = vs[k]!;
      let bucket: number;
      if (b.clipped && v > b.edges[last]!) bucket = b.edges.length;
      else {
        while (below < last && b.edges[below]! <= v) below++;
        bucket = below;
      }
      if (run !== null && run.bin === bucket) run.n += ns[k]!;
      else counts.push((run = { metric: m.key, bin: bucket, n: ns[k]! }));
    }
  });
  return buildDashboard({
    scope: describeFilter(filter),
    traces,
    e1_n: e1n,
    e1_successes: e1successes,
    stats,
    bins,
    counts,
    verdicts: [...verdictCounts].map(([verdict, n]) => ({ verdict, n })),
    // days ascending ('YYYY-MM-DD' sorts as text does); checkpoints in the rows' order
    days: [...days.values()].sort((a, b) => (a.key! < b.key! ? -1 : a.key! > b.key! ? 1 : 0)).map(trendRow),
    policies: [...policies.values()].map(trendRow),
  });
}

/** A cell of the scan: its day, checkpoint and verdict, counts, and `a<i>`: metric i's non-null values, 8 bytes each (float8send), null for none. */
interface ScanRow {
  day: string;
  policy: string | null;
  verdict: string | null;
  traces: number;
  e1_n: number;
  e1_successes: number;
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
