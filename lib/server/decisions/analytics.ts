import "server-only";
import { readPrepared } from "@/lib/server/db/prepared";
import { createdRange } from "@/lib/dashboard/query";
import { DECISIONS, decisionReport, emptyTallies, emptyTally, NO_STOP, NO_VERDICT, type DecisionFilter, type DecisionKey, type DecisionReport, type DecisionTallies, type Tally } from "@/lib/decisions";
import { Prisma } from "@/lib/generated/prisma/client";
import { traceWhere } from "../queries/trace-filter";

/**
 * Decision analytics in SQL over the stored columns (traces + trace_decisions),
 * one statement that reads each selected row once (`r`, materialised): from
 * it GROUPING SETS add up every tally (one set per dimension; delegate roles
 * are grouped by the stored role list and spread over its roles here), and
 * the per-group sums of the within-group difference (one row per group, then
 * summed) ride along as the columns of the one row they make. A prepared
 * statement (lib/server/db/prepared.ts). lib/decisions turns the tallies into the report.
 */

const TAKEN = DECISIONS.map((d) => d.key);

/** The grouped columns, in GROUPING() argument order; each is one grouping set. */
const DIMENSIONS = [
  ...TAKEN.map((k) => [`taken:${k}`, `d.${k}_taken`] as const),
  ["agents_spawned", "d.agents_spawned_bucket"],
  ["delegate_role", "d.delegate_role_buckets"],
  ["messages_per_agent", "d.messages_per_agent_bucket"],
  ["aggregate_fan_in", "d.aggregate_fan_in_bucket"],
  ["stop_reason", "t.stop_reason"],
  ["verdict", "t.verdict"],
  ["checkpoint", "d.policy_version"],
] as const;

function whereSql(f: DecisionFilter, readable: string[] | null): Prisma.Sql {
  const { from: _f, to: _t, policy_version, ...rest } = f;
  const where = traceWhere({ ...rest, ...createdRange(f), ...(readable !== null && { readable }) });
  if (policy_version === undefined) return where;
  return Prisma.sql`${where === Prisma.empty ? Prisma.sql`WHERE` : Prisma.sql`${where} AND`} d.policy_version = ${policy_version}`;
}

const FROM = Prisma.raw("FROM traces t JOIN trace_decisions d ON d.trace_id = t.id");

/** The selected rows' columns the statement reads (their names in `r` are the columns' own: traces' and trace_decisions' used here do not clash). */
const ROW_COLUMNS = [...new Set([...DIMENSIONS.map(([, c]) => c), ...TAKEN.map((k) => `d.${k}_taken`), "t.e1", "d.r_total", "t.group_id"])];
/** A column of `t` or `d` as the materialised rows `r` name it. */
const inR = (c: string) => c.replace(/^[td]\./, "r.");

function tallySelect(): string {
  const columns = DIMENSIONS.map(([, c]) => inR(c)).join(", ");
  const values = DIMENSIONS.map(([, c], i) => `${inR(c)}${c.startsWith("t.") ? "::text" : ""} AS c${i}`).join(", ");
  const sets = ["()", ...DIMENSIONS.map(([, c]) => `(${inR(c)})`)].join(", ");
  const taken = TAKEN.map((k) => `count(*) FILTER (WHERE r.${k}_taken)::int AS "taken_${k}"`).join(", ");
  return `SELECT GROUPING(${columns})::int AS g, ${values},
      count(*)::int AS traces, count(r.e1)::int AS n, coalesce(sum(r.e1), 0)::int AS successes, coalesce(sum(r.r_total), 0)::float8 AS r_sum, ${taken}
    FROM r GROUP BY GROUPING SETS (${sets})`;
}

function withinSelect(): string {
  const perGroup = TAKEN.map((k) => `count(*) FILTER (WHERE r.${k}_taken)::float8 AS n1_${k}, coalesce(sum(r.e1) FILTER (WHERE r.${k}_taken), 0)::float8 AS a_${k},
      count(*) FILTER (WHERE NOT r.${k}_taken)::float8 AS n0_${k}, coalesce(sum(r.e1) FILTER (WHERE NOT r.${k}_taken), 0)::float8 AS c_${k}`).join(", ");
  const sums = TAKEN.map((k) => {
    const [n1, a, n0, c] = [`n1_${k}`, `a_${k}`, `n0_${k}`, `c_${k}`];
    const mixed = `${n1} > 0 AND ${n0} > 0`;
    return `count(*) FILTER (WHERE ${mixed})::int AS "${k}_strata", coalesce(sum(${n1}) FILTER (WHERE ${mixed}), 0)::int AS "${k}_n1", coalesce(sum(${n0}) FILTER (WHERE ${mixed}), 0)::int AS "${k}_n0",
      coalesce(sum((${a} * ${n0} - ${c} * ${n1}) / (${n1} + ${n0})) FILTER (WHERE ${mixed}), 0) AS "${k}_numerator",
      coalesce(sum(${n1} * ${n0} / (${n1} + ${n0})) FILTER (WHERE ${mixed}), 0) AS "${k}_weight",
      coalesce(sum((${a} * (${n1} - ${a}) * ${n0} ^ 3 + ${c} * (${n0} - ${c}) * ${n1} ^ 3) / (${n1} * ${n0} * (${n1} + ${n0}) ^ 2)) FILTER (WHERE ${mixed}), 0) AS "${k}_variance"`;
  }).join(",\n");
  return `SELECT ${sums} FROM (SELECT ${perGroup} FROM r WHERE r.group_id IS NOT NULL AND r.e1 IS NOT NULL GROUP BY r.group_id) AS g`;
}

const TALLY = tallySelect();
const WITHIN = withinSelect();

/** The report's statement: the tallies' rows, each with the within-group sums (one row) beside it. */
export const decisionsSql = (where: Prisma.Sql) => Prisma.sql`
  WITH r AS MATERIALIZED (SELECT ${Prisma.raw(ROW_COLUMNS.join(", "))} ${FROM} ${where})
  SELECT tally.*, within.* FROM (${Prisma.raw(TALLY)}) AS tally CROSS JOIN (${Prisma.raw(WITHIN)}) AS within`;

type TallyRow = { g: number; traces: number; n: number; successes: number; r_sum: number } & Record<`c${number}`, string | string[] | boolean | null> & Record<`taken_${DecisionKey}`, number>;

/** The GROUPING() mask of the set that groups only by dimension i (a set bit = not grouped by that column). */
const maskOf = (i: number) => (2 ** DIMENSIONS.length - 1) ^ (2 ** (DIMENSIONS.length - 1 - i));
const ALL = 2 ** DIMENSIONS.length - 1;

export function talliesFromRows(rows: readonly TallyRow[], within: Record<string, number>): DecisionTallies {
  const t = emptyTallies();
  const dimensionOf = new Map(DIMENSIONS.map(([name], i) => [maskOf(i), [name, i] as const]));
  const addTo = (m: Map<string, Tally>, key: string, x: Tally) => {
    const old = m.get(key) ?? emptyTally();
    m.set(key, { traces: old.traces + x.traces, n: old.n + x.n, successes: old.successes + x.successes, r_sum: old.r_sum + x.r_sum });
  };
  for (const r of rows) {
    const tally: Tally = { traces: r.traces, n: r.n, successes: r.successes, r_sum: r.r_sum };
    if (r.g === ALL) {
      t.total = tally;
      continue;
    }
    const [name, i] = dimensionOf.get(r.g)!;
    const value = r[`c${i}`];
    const [dim, key] = name.split(":") as [string, DecisionKey | undefined];
    if (dim === "taken") t.taken[key!][value === true ? "taken" : "not_taken"] = tally;
    else if (dim === "checkpoint") {
      const v = value as string | null;
      t.checkpoints.set(v, { tally, taken: Object.fromEntries(TAKEN.map((k) => [k, r[`taken_${k}`]])) as Record<DecisionKey, number> });
    } else if (dim === "delegate_role") for (const role of value as string[]) addTo(t.buckets.delegate_role, role, tally);
    else if (dim === "stop_reason") t.buckets.stop_reason.set((value as string | null) ?? NO_STOP, tally);
    else if (dim === "verdict") t.buckets.verdict.set((value as string | null) ?? NO_VERDICT, tally);
    else t.buckets[dim as "agents_spawned" | "messages_per_agent" | "aggregate_fan_in"].set(value as string, tally);
  }
  for (const k of TAKEN) {
    t.within[k] = { strata: within[`${k}_strata`]!, n1: within[`${k}_n1`]!, n0: within[`${k}_n0`]!, numerator: within[`${k}_numerator`]!, weight: within[`${k}_weight`]!, variance: within[`${k}_variance`]! };
  }
  return t;
}

/** `GET /api/decisions`: the report over the filter, limited to the projects the caller may read (null: all). */
export async function decisionAnalytics(f: DecisionFilter, readable: string[] | null): Promise<DecisionReport> {
  const rows = await readPrepared<TallyRow & Record<string, number>>(decisionsSql(whereSql(f, readable)));
  // no rows selected: the () set still makes one row, with the within-group sums beside it
  return decisionReport(talliesFromRows(rows, rows[0]!));
}
