import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import { METRIC_CATALOGUE, type MetricKind } from "@/lib/metrics/catalogue";
import { VERDICTS } from "@/lib/metrics/types";
import type { Bin } from "@/lib/metrics/sketch";
import { reader } from "@/lib/server/db/read";
import type { JudgeSelection } from "@/lib/judges/selection";
import { e1WithJudges } from "../judges/e1";
import { traceWhere, type TraceFilter } from "../queries/trace-filter";

/**
 * Reads of the metric summaries (sql.ts): the views' numbers from the
 * summary cells a filter selects. A filter is expressible on the cells when
 * it names only their grain: project (and the projects the caller may read),
 * system, topology, and a created_at range of whole UTC days; no task_id, no
 * group_id. Otherwise `cellWhere` is null and the views scan the traces.
 * With judges (E1 from judges' labels where no person labelled), the stored
 * E1 of the cells is corrected by the traces judges labelled (`judgedE1`).
 */
const MIDNIGHT = (d: Date) => d.getTime() % 86_400_000 === 0;

export function cellWhere(f: TraceFilter): Prisma.Sql | null {
  if (f.task_id || f.group_id) return null;
  if ((f.from && !MIDNIGHT(f.from)) || (f.to && !MIDNIGHT(f.to))) return null;
  const conditions: Prisma.Sql[] = [];
  if (f.project) conditions.push(Prisma.sql`c.project_id = (SELECT id FROM projects WHERE name = ${f.project})`);
  if (f.readable) conditions.push(Prisma.sql`c.project_id IN (SELECT id FROM projects WHERE name = ANY(${f.readable}))`);
  if (f.system) conditions.push(Prisma.sql`c.system = ${f.system}`);
  if (f.topology) conditions.push(Prisma.sql`c.topology = ${f.topology}::"Topology"`);
  if (f.from) conditions.push(Prisma.sql`c.day >= ${f.from.toISOString().slice(0, 10)}::date`);
  if (f.to) conditions.push(Prisma.sql`c.day < ${f.to.toISOString().slice(0, 10)}::date`);
  return conditions.length > 0 ? Prisma.sql`WHERE ${Prisma.join(conditions, " AND ")}` : Prisma.empty;
}

export interface MetricSummary {
  n: number;
  /** the exact mean as PostgreSQL's numeric division gives it (text), null without values */
  mean: string | null;
  min: number | null;
  max: number | null;
  /** ascending by key */
  bins: Bin[];
}

export interface Totals {
  traces: number;
  e1_n: number;
  e1_successes: number;
  verdicts: { verdict: string | null; n: number }[];
}

export const KIND = new Map<string, MetricKind>(METRIC_CATALOGUE.map((m) => [m.key, m.kind]));

/** The totals of the selected cells. */
export async function summaryTotals(where: Prisma.Sql): Promise<Totals> {
  const db = (await reader()).prisma;
  const [r] = await db.$queryRaw<Record<string, number | bigint | null>[]>`
    SELECT coalesce(sum(traces), 0)::int8 AS traces, coalesce(sum(e1_n), 0)::int8 AS e1_n, coalesce(sum(e1_successes), 0)::int8 AS e1_successes,
      ${Prisma.raw([...VERDICTS, "none"].map((v) => `coalesce(sum(v_${v}), 0)::int8 AS v_${v}`).join(", "))}
    FROM summary_cells c ${where}`;
  const verdicts = [...VERDICTS.map((v) => ({ verdict: v, n: Number(r![`v_${v}`]) })), { verdict: null, n: Number(r!.v_none) }].filter((v) => v.n > 0);
  return { traces: Number(r!.traces), e1_n: Number(r!.e1_n), e1_successes: Number(r!.e1_successes), verdicts };
}

/**
 * The mean as the scan computes it (metrics.ts safeMean): the exact numeric sum, trimmed of trailing
 * zeros so that a sum made of other parts divides the same way, over the count.
 */
export const meanOfSums = (sum: Prisma.Sql, n: Prisma.Sql) => Prisma.sql`(trim_scale(${sum}) / nullif(${n}, 0))::text`;

/** Every metric's count, exact mean, min, max and merged bins over the selected cells. */
export async function summaryMetrics(where: Prisma.Sql): Promise<Map<string, MetricSummary>> {
  const db = (await reader()).prisma;
  const [stats, bins] = await Promise.all([
    db.$queryRaw<{ metric: string; n: bigint; mean: string | null; min: number | null; max: number | null }[]>`
      SELECT s.metric, sum(s.n)::int8 AS n, ${meanOfSums(Prisma.sql`sum(s.sum)`, Prisma.sql`sum(s.n)`)} AS mean, min(s.min) AS min, max(s.max) AS max
      FROM summary_metrics s JOIN summary_cells c ON c.id = s.cell_id ${where} GROUP BY s.metric`,
    db.$queryRaw<{ metric: string; key: number; n: bigint }[]>`
      SELECT s.metric, s.key, sum(s.n)::int8 AS n FROM summary_bins s JOIN summary_cells c ON c.id = s.cell_id ${where}
      GROUP BY s.metric, s.key HAVING sum(s.n) <> 0 ORDER BY s.metric, s.key`,
  ]);
  const out = new Map<string, MetricSummary>();
  for (const m of METRIC_CATALOGUE) out.set(m.key, { n: 0, mean: null, min: null, max: null, bins: [] });
  for (const s of stats) {
    const o = out.get(s.metric);
    if (o) Object.assign(o, { n: Number(s.n), mean: s.mean, min: s.min, max: s.max });
  }
  for (const b of bins) out.get(b.metric)?.bins.push({ key: b.key, n: Number(b.n) });
  return out;
}

export interface GroupRow {
  key: string | null;
  traces: number;
  e1_n: number;
  e1_successes: number;
  means: Record<string, number | null>;
}

/** Per day (YYYY-MM-DD, ascending) or per policy_version (checkpoint order: by first trace, none last): counts and exact means. */
export async function summaryGroups(where: Prisma.Sql, by: "day" | "policy"): Promise<GroupRow[]> {
  const db = (await reader()).prisma;
  const group = by === "day" ? Prisma.sql`to_char(c.day, 'YYYY-MM-DD')` : Prisma.sql`c.policy_version`;
  const order = by === "day" ? Prisma.sql`ORDER BY 1` : Prisma.sql`ORDER BY c.policy_version IS NULL, min(c.first_at), 1`;
  const [rows, means] = await Promise.all([
    db.$queryRaw<{ key: string | null; traces: bigint; e1_n: bigint; e1_successes: bigint }[]>`
      SELECT ${group} AS key, sum(traces)::int8 AS traces, sum(e1_n)::int8 AS e1_n, sum(e1_successes)::int8 AS e1_successes
      FROM summary_cells c ${where} GROUP BY ${group} ${order}`,
    db.$queryRaw<{ key: string | null; metric: string; mean: string | null }[]>`
      SELECT ${group} AS key, s.metric, ${meanOfSums(Prisma.sql`sum(s.sum)`, Prisma.sql`sum(s.n)`)} AS mean
      FROM summary_metrics s JOIN summary_cells c ON c.id = s.cell_id ${where} GROUP BY 1, 2`,
  ]);
  const byKey = new Map<string | null, Record<string, number | null>>();
  for (const m of means) {
    const record = byKey.get(m.key) ?? {};
    record[m.metric] = m.mean === null ? null : Number(m.mean);
    byKey.set(m.key, record);
  }
  return rows.map((r) => ({
    key: r.key,
    traces: Number(r.traces),
    e1_n: Number(r.e1_n),
    e1_successes: Number(r.e1_successes),
    means: Object.fromEntries(METRIC_CATALOGUE.map((m) => [m.key, byKey.get(r.key)?.[m.key] ?? null])),
  }));
}

let enabled = true;
/** Whether the views answer from the summaries where they can (the bench turns it off to time the scan on the same filter). */
export function setSummaries(on: boolean): void {
  enabled = on;
}
/** The cells' WHERE of a view's filter when the summaries answer it, else null (the view scans the traces). */
export function summaryWhere(f: TraceFilter): Prisma.Sql | null {
  return enabled ? cellWhere(f) : null;
}

export interface E1Change {
  day: string;
  policy: string | null;
  /** what judges change in E1's count and successes: judged minus stored */
  n: number;
  successes: number;
}

/**
 * E1 with judges on the summaries: only traces with a current trace-level
 * task_success value of a selected judge can have another E1 than the stored
 * one, so the cells' E1 is corrected by those traces alone (their judged E1
 * minus their stored E1, per day and checkpoint: exact, and a read of the
 * judged traces rather than of all of them). Nothing for no judges.
 */
export async function judgedE1(f: TraceFilter, judges: JudgeSelection): Promise<E1Change[]> {
  if (judges.kind === "none") return [];
  const { join, e1 } = e1WithJudges(judges);
  const names = judges.kind === "names" ? Prisma.sql`AND j.name = ANY(${judges.names})` : Prisma.empty;
  const where = traceWhere(f);
  const rows = await (await reader()).prisma.$queryRaw<{ day: string; policy: string | null; n: number; successes: number }[]>`
    SELECT to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, t.metadata->>'policy_version' AS policy,
      (count(${e1}) - count(t.e1))::int AS n, (coalesce(sum(${e1}), 0) - coalesce(sum(t.e1), 0))::int AS successes
    FROM traces t ${join}
    ${where === Prisma.empty ? Prisma.sql`WHERE` : Prisma.sql`${where} AND`} t.trace_id IN (
      SELECT jl.trace_key FROM judge_labels jl JOIN judges j ON j.id = jl.judge_id
      WHERE jl.event_id = '' AND jl.family = 'task_success' AND jl.current AND jl.value IS NOT NULL ${names})
    GROUP BY 1, 2`;
  return rows.map((r) => ({ day: r.day, policy: r.policy, n: Number(r.n), successes: Number(r.successes) }));
}
