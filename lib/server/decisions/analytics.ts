import "server-only";
import { createdRange } from "@/lib/dashboard/query";
import { BUCKET_DIMENSIONS, DECISIONS, decisionReport, emptyTallies, emptyTally, NO_STOP, NO_VERDICT, type DecisionFilter, type DecisionKey, type DecisionReport, type DecisionTallies, type Tally } from "@/lib/decisions";
import { Prisma } from "@/lib/generated/prisma/client";
import { prisma } from "../db/client";
import { traceWhere } from "../queries/trace-filter";

/**
 * Decision analytics in SQL over the stored columns (traces + trace_decisions):
 * one scan adds up every tally (each trace contributes one row per dimension
 * through a LATERAL list), a second the per-group sums of the within-group
 * difference. lib/decisions turns the tallies into the report.
 */

const TAKEN = DECISIONS.map((d) => d.key);

/** The filtered rows, as a CTE named base. Exported for the benchmark's baseline, which reads the same rows. */
export function baseSql(f: DecisionFilter, readable: string[] | null): Prisma.Sql {
  const { from: _f, to: _t, policy_version, ...rest } = f;
  const where = traceWhere({ ...rest, ...createdRange(f), ...(readable !== null && { readable }) });
  const policy = policy_version === undefined ? Prisma.empty : Prisma.sql`${where === Prisma.empty ? Prisma.sql`WHERE` : Prisma.sql`AND`} d.policy_version = ${policy_version}`;
  return Prisma.sql`base AS MATERIALIZED (
    SELECT t.group_id, t.e1, d.r_total, d.policy_version, t.stop_reason::text AS stop_reason, t.verdict::text AS verdict,
           d.spawn_taken, d.delegate_taken, d.communicate_taken, d.aggregate_taken, d.stop_taken,
           d.agents_spawned_bucket, d.delegate_role_buckets, d.messages_per_agent_bucket, d.aggregate_fan_in_bucket
    FROM traces t JOIN trace_decisions d ON d.trace_id = t.id ${where} ${policy})`;
}

const tallySql = (base: Prisma.Sql) => Prisma.sql`WITH ${base}
  SELECT x.dim, x.bucket, count(*)::int AS traces, count(b.e1)::int AS n, coalesce(sum(b.e1), 0)::int AS successes, coalesce(sum(b.r_total), 0)::float8 AS r_sum
  FROM base b CROSS JOIN LATERAL (
    SELECT 'total' AS dim, NULL::text AS bucket
    ${Prisma.raw(TAKEN.map((k) => `UNION ALL SELECT 'taken:${k}', b.${k}_taken::text`).join(" "))}
    UNION ALL SELECT 'agents_spawned', b.agents_spawned_bucket
    UNION ALL SELECT 'delegate_role', r FROM unnest(b.delegate_role_buckets) AS r
    UNION ALL SELECT 'messages_per_agent', b.messages_per_agent_bucket
    UNION ALL SELECT 'aggregate_fan_in', b.aggregate_fan_in_bucket
    UNION ALL SELECT 'stop_reason', coalesce(b.stop_reason, ${NO_STOP})
    UNION ALL SELECT 'verdict', coalesce(b.verdict, ${NO_VERDICT})
    UNION ALL SELECT 'checkpoint', b.policy_version
    ${Prisma.raw(TAKEN.map((k) => `UNION ALL SELECT 'checkpoint_taken:${k}', b.policy_version WHERE b.${k}_taken`).join(" "))}
  ) AS x
  GROUP BY x.dim, x.bucket`;

const withinSql = (base: Prisma.Sql) => Prisma.sql`WITH ${base},
  g AS (
    SELECT x.k, count(*) FILTER (WHERE x.taken)::float8 AS n1, coalesce(sum(b.e1) FILTER (WHERE x.taken), 0)::float8 AS a,
           count(*) FILTER (WHERE NOT x.taken)::float8 AS n0, coalesce(sum(b.e1) FILTER (WHERE NOT x.taken), 0)::float8 AS c
    FROM base b CROSS JOIN LATERAL (VALUES ${Prisma.raw(TAKEN.map((k) => `('${k}', b.${k}_taken)`).join(", "))}) AS x(k, taken)
    WHERE b.group_id IS NOT NULL AND b.e1 IS NOT NULL
    GROUP BY b.group_id, x.k)
  SELECT k, count(*)::int AS strata, sum(n1)::int AS n1, sum(n0)::int AS n0,
         sum((a * n0 - c * n1) / (n1 + n0)) AS numerator, sum(n1 * n0 / (n1 + n0)) AS weight,
         sum((a * (n1 - a) * n0 ^ 3 + c * (n0 - c) * n1 ^ 3) / (n1 * n0 * (n1 + n0) ^ 2)) AS variance
  FROM g WHERE n1 > 0 AND n0 > 0 GROUP BY k`;

interface TallyRow { dim: string; bucket: string | null; traces: number; n: number; successes: number; r_sum: number }
interface WithinRow { k: DecisionKey; strata: number; n1: number; n0: number; numerator: number; weight: number; variance: number }

const BUCKET_DIMS = new Set<string>(BUCKET_DIMENSIONS.map((d) => d.by));

export function talliesFromRows(rows: readonly TallyRow[], within: readonly WithinRow[]): DecisionTallies {
  const t = emptyTallies();
  const checkpoint = (v: string | null) => {
    let c = t.checkpoints.get(v);
    if (!c) t.checkpoints.set(v, (c = { tally: emptyTally(), taken: Object.fromEntries(TAKEN.map((k) => [k, 0])) as Record<DecisionKey, number> }));
    return c;
  };
  for (const r of rows) {
    const tally: Tally = { traces: r.traces, n: r.n, successes: r.successes, r_sum: r.r_sum };
    const [dim, key] = r.dim.split(":") as [string, DecisionKey | undefined];
    if (dim === "total") t.total = tally;
    else if (dim === "taken") t.taken[key!][r.bucket === "true" ? "taken" : "not_taken"] = tally;
    else if (dim === "checkpoint") checkpoint(r.bucket).tally = tally;
    else if (dim === "checkpoint_taken") checkpoint(r.bucket).taken[key!] = r.traces;
    else if (BUCKET_DIMS.has(dim)) t.buckets[dim as keyof DecisionTallies["buckets"]].set(r.bucket ?? "", tally);
  }
  for (const w of within) t.within[w.k] = { strata: w.strata, n1: w.n1, n0: w.n0, numerator: w.numerator, weight: w.weight, variance: w.variance };
  return t;
}

/** `GET /api/decisions`: the report over the filter, limited to the projects the caller may read (null: all). */
export async function decisionAnalytics(f: DecisionFilter, readable: string[] | null): Promise<DecisionReport> {
  const base = baseSql(f, readable);
  const [rows, within] = await Promise.all([prisma().$queryRaw<TallyRow[]>(tallySql(base)), prisma().$queryRaw<WithinRow[]>(withinSql(base))]);
  return decisionReport(talliesFromRows(rows, within));
}
