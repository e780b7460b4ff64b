import "server-only";
import { reader } from "@/lib/server/db/read";
import { INTEGER_COLUMNS, safeMean } from "./metrics";
import {
  binEdges,
  binRange,
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

/**
 * The dashboard's numbers, in the SQL style of metrics.ts: over the stored
 * per-trace metric columns, every value a bound parameter, column names from
 * the fixed list of lib/dashboard. Two rounds: ranges (and everything that
 * needs no bins), then the counts per bin of lib/dashboard's bin edges.
 */
type Row = Record<string, number | bigint | string | null | (number | null)[]>;

const column = (key: string) => (metricOf(key)?.kind === "boolean" ? Prisma.raw(`(t.${key})::int`) : Prisma.raw(`t.${key}`));
const alias = (name: string) => Prisma.raw(`"${name}"`);
const num = (v: Row[string] | undefined): number | null => (v === null || v === undefined || Array.isArray(v) ? null : Number(v));

/** Per-group counts and means for the trend rows (`e1`: the stored column, or with judges' values, lib/server/judges/e1.ts). */
const trendSelect = (e1: Prisma.Sql) => Prisma.sql`count(*)::int AS traces, count(${e1})::int AS e1_n, coalesce(sum(${e1}), 0)::int AS e1_successes,
  ${Prisma.join(DASHBOARD_METRICS.map((m) => Prisma.sql`${safeMean(column(m.key), INTEGER_COLUMNS.has(m.key))} AS ${alias(`mean_${m.key}`)}`))}`;

function trendRow(r: Row): TrendRow {
  return {
    key: r.key === null ? null : String(r.key),
    traces: Number(r.traces),
    e1_n: Number(r.e1_n),
    e1_successes: Number(r.e1_successes),
    means: Object.fromEntries(DASHBOARD_METRICS.map((m) => [m.key, num(r[`mean_${m.key}`])])),
  };
}

/** `judges`: whose trace-level task_success values decide E1 where no person labelled it (SPEC.md section 5); E1 only. */
export async function dashboardModel(filter: TraceFilter, judges: JudgeSelection = NO_JUDGES): Promise<DashboardModel> {
  const cells = summaryWhere(filter);
  if (cells !== null) return dashboardFromSummaries(filter, cells, judges);
  const where = traceWhere(filter);
  const { join, e1 } = e1WithJudges(judges);
  const from = Prisma.sql`FROM traces t ${join} ${where}`;
  const db = (await reader()).prisma;
  const ranges = DASHBOARD_METRICS.flatMap((m) => [
    Prisma.sql`min(${column(m.key)})::float8 AS ${alias(`${m.key}_min`)}`,
    Prisma.sql`max(${column(m.key)})::float8 AS ${alias(`${m.key}_max`)}`,
    Prisma.sql`count(${column(m.key)})::int AS ${alias(`${m.key}_n`)}`,
    // both percentiles from one sort of the column
    Prisma.sql`percentile_cont(ARRAY[0.02, 0.98]) WITHIN GROUP (ORDER BY ${column(m.key)})::float8[] AS ${alias(`${m.key}_p`)}`,
  ]);
  const [[summary], verdicts, days, policies] = await Promise.all([
    db.$queryRaw<Row[]>`SELECT count(*)::int AS traces, count(${e1})::int AS e1_n, coalesce(sum(${e1}), 0)::int AS e1_successes, ${Prisma.join(ranges)} ${from}`,
    db.$queryRaw<{ verdict: string | null; n: number }[]>`SELECT t.verdict::text AS verdict, count(*)::int AS n FROM traces t ${where} GROUP BY t.verdict`,
    db.$queryRaw<Row[]>`SELECT to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS key, ${trendSelect(e1)} ${from} GROUP BY 1 ORDER BY 1`,
    // checkpoints in the order their first trace arrived; traces without one last
    db.$queryRaw<Row[]>`SELECT t.metadata->>'policy_version' AS key, ${trendSelect(e1)} ${from}
      GROUP BY 1 ORDER BY (t.metadata->>'policy_version') IS NULL, min(t.created_at), 1`,
  ]);
  const s = summary!;
  const traces = Number(s.traces);
  const stats: Record<string, MetricStats> = {};
  const bins: Record<string, Bins> = {};
  for (const m of DASHBOARD_METRICS) {
    const values = Number(s[`${m.key}_n`]);
    const min = num(s[`${m.key}_min`]);
    const max = num(s[`${m.key}_max`]);
    stats[m.key] = { min, max, values, nulls: traces - values };
    const percentiles = s[`${m.key}_p`];
    const [p02, p98] = Array.isArray(percentiles) ? percentiles : [null, null];
    const { range, clipped } = min === null || max === null ? { range: null, clipped: false } : binRange({ min, max }, num(p02), num(p98));
    bins[m.key] = { ...binEdges(m.kind, range), ...(clipped && { clipped: true }) };
  }
  return buildDashboard({
    scope: describeFilter(filter),
    traces,
    e1_n: Number(s.e1_n),
    e1_successes: Number(s.e1_successes),
    stats,
    bins,
    counts: await binCounts(where, bins),
    verdicts,
    days: days.map(trendRow),
    policies: policies.map(trendRow),
  });
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

/**
 * Every histogram's counts in one pass over the filtered rows: each row
 * gives one (metric, bin) pair per metric it has a value for (a LATERAL
 * VALUES list), counted by one GROUP BY. A NULL value has no bucket
 * (width_bucket of NULL is NULL) and is left out, as the histograms want.
 */
async function binCounts(where: Prisma.Sql, bins: Record<string, Bins>): Promise<BinCount[]> {
  const binned = DASHBOARD_METRICS.filter((m) => bins[m.key]!.edges.length > 1);
  if (binned.length === 0) return [];
  const pairs = binned.map((m) => Prisma.sql`(${m.key}::text, ${bucketOf(m.key, bins[m.key]!)})`);
  const rows = await (await reader()).prisma.$queryRaw<{ metric: string; bin: number; n: number }[]>`
    SELECT v.metric, v.bin, count(*)::int AS n
    FROM (SELECT t.* FROM traces t ${where}) t CROSS JOIN LATERAL (VALUES ${Prisma.join(pairs)}) AS v(metric, bin)
    WHERE v.bin IS NOT NULL
    GROUP BY 1, 2`;
  return rows.map((r) => ({ metric: r.metric, bin: Number(r.bin), n: Number(r.n) }));
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
