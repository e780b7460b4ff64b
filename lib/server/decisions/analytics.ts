import "server-only";
import { readPrepared } from "@/lib/server/db/prepared";
import { createdRange } from "@/lib/dashboard/query";
import { DECISIONS, decisionReport, emptyTallies, emptyTally, NO_STOP, NO_VERDICT, type DecisionFilter, type DecisionKey, type DecisionReport, type DecisionTallies, type Tally } from "@/lib/decisions";
import { Prisma } from "@/lib/generated/prisma/client";
import { traceWhere, type TraceFilter } from "../queries/trace-filter";
import { PENDING_TERMS, TALLY_ROWS } from "../summaries/decisions-sql";
import { summaryWhere } from "../summaries/read";

/**
 * Decision analytics in SQL. When the filter is on the decision summaries'
 * grain (project, the caller's projects, system, topology, checkpoint, whole
 * UTC days: every filter but task_id and group_id), the tallies are sums of
 * the summary rows the filter selects (lib/server/summaries/decisions-sql.ts;
 * docs/scale.md, "Decision summaries") and the within-group sums are taken
 * over the groups' counts added up over those cells, each with the pending
 * differences of label writes not yet folded in. Otherwise, one statement
 * over traces + trace_decisions that reads each selected row once (`r`,
 * materialised): from it GROUPING SETS add up every tally (one set per
 * dimension; delegate roles are grouped by the stored role list and spread
 * over its roles here), and the per-group sums of the within-group difference
 * (one row per group, then summed) ride along as the columns of the one row
 * they make. Both as prepared statements (lib/server/db/prepared.ts).
 * lib/decisions turns the tallies into the report.
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

function traceFilter(f: DecisionFilter, readable: string[] | null): TraceFilter {
  const { from: _f, to: _t, policy_version: _p, ...rest } = f;
  return { ...rest, ...createdRange(f), ...(readable !== null && { readable }) };
}

function whereSql(f: DecisionFilter, readable: string[] | null): Prisma.Sql {
  const { policy_version } = f;
  const where = traceWhere(traceFilter(f, readable));
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

/** The within-group sums over groups `g` with columns n1_<k>, a_<k>, n0_<k>, c_<k> per decision (float8): only groups with both arms count. */
function withinSums(): string {
  return TAKEN.map((k) => {
    const [n1, a, n0, c] = [`n1_${k}`, `a_${k}`, `n0_${k}`, `c_${k}`];
    const mixed = `${n1} > 0 AND ${n0} > 0`;
    return `count(*) FILTER (WHERE ${mixed})::int AS "${k}_strata", coalesce(sum(${n1}) FILTER (WHERE ${mixed}), 0)::int AS "${k}_n1", coalesce(sum(${n0}) FILTER (WHERE ${mixed}), 0)::int AS "${k}_n0",
      coalesce(sum((${a} * ${n0} - ${c} * ${n1}) / (${n1} + ${n0})) FILTER (WHERE ${mixed}), 0) AS "${k}_numerator",
      coalesce(sum(${n1} * ${n0} / (${n1} + ${n0})) FILTER (WHERE ${mixed}), 0) AS "${k}_weight",
      coalesce(sum((${a} * (${n1} - ${a}) * ${n0} ^ 3 + ${c} * (${n0} - ${c}) * ${n1} ^ 3) / (${n1} * ${n0} * (${n1} + ${n0}) ^ 2)) FILTER (WHERE ${mixed}), 0) AS "${k}_variance"`;
  }).join(",\n");
}

function withinSelect(): string {
  const perGroup = TAKEN.map((k) => `count(*) FILTER (WHERE r.${k}_taken)::float8 AS n1_${k}, coalesce(sum(r.e1) FILTER (WHERE r.${k}_taken), 0)::float8 AS a_${k},
      count(*) FILTER (WHERE NOT r.${k}_taken)::float8 AS n0_${k}, coalesce(sum(r.e1) FILTER (WHERE NOT r.${k}_taken), 0)::float8 AS c_${k}`).join(", ");
  return `SELECT ${withinSums()} FROM (SELECT ${perGroup} FROM r WHERE r.group_id IS NOT NULL AND r.e1 IS NOT NULL GROUP BY r.group_id) AS g`;
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

/** `where` (empty or a WHERE clause) and one more condition. */
const and = (where: Prisma.Sql, condition: Prisma.Sql) => (where === Prisma.empty ? Prisma.sql`WHERE ${condition}` : Prisma.sql`${where} AND ${condition}`);

/**
 * The summaries' WHERE (over decision_tallies or decision_groups as `c`) of a filter they answer:
 * the metric summaries' rule (lib/server/summaries/read.ts cellWhere: project, the projects the caller
 * may read, system, topology, whole UTC days; not task_id or group_id) plus the checkpoint, a grain
 * of these cells. Null: the scan answers.
 */
export function decisionCellWhere(f: DecisionFilter, readable: string[] | null): Prisma.Sql | null {
  const where = summaryWhere(traceFilter(f, readable));
  if (where === null || f.policy_version === undefined) return where;
  return and(where, Prisma.sql`c.policy_version = ${f.policy_version}`);
}

const SUMS = "sum(c.traces)::int AS traces, sum(c.n)::int AS n, sum(c.successes)::int AS successes, sum(c.r_sum)::float8 AS r_sum";

/** The tallies of the dimensions other than the total, per (dimension, value). */
const summaryTalliesSql = (where: Prisma.Sql) => Prisma.sql`
  SELECT c.dim, c.value, ${Prisma.raw(SUMS)} FROM ${Prisma.raw(TALLY_ROWS)} c ${and(where, Prisma.sql`c.dim <> 'total'`)} GROUP BY c.dim, c.value`;

/** Per decision: the tally of the traces that took it and of those that did not (the total's minus the taken's, exact in numeric). */
const TAKEN_SUMS = TAKEN.map((k) => `sum(c.taken_${k})::int AS "taken_${k}", sum(c.n_${k})::int AS "n_${k}", sum(c.successes_${k})::int AS "successes_${k}", sum(c.r_sum_${k})::float8 AS "r_sum_${k}",
    (sum(c.traces) - sum(c.taken_${k}))::int AS "traces_not_${k}", (sum(c.n) - sum(c.n_${k}))::int AS "n_not_${k}", (sum(c.successes) - sum(c.successes_${k}))::int AS "successes_not_${k}",
    (sum(c.r_sum) - sum(c.r_sum_${k}))::float8 AS "r_sum_not_${k}"`).join(", ");

/** Per checkpoint (g = 0) and over all (g = 1): the tally, and per decision the tallies of the traces that took it and did not. */
const summaryCheckpointsSql = (where: Prisma.Sql) => Prisma.sql`
  SELECT GROUPING(c.policy_version)::int AS g, c.policy_version, ${Prisma.raw(SUMS)}, ${Prisma.raw(TAKEN_SUMS)}
  FROM ${Prisma.raw(TALLY_ROWS)} c ${and(where, Prisma.sql`c.dim = 'total'`)} GROUP BY GROUPING SETS ((c.policy_version), ())`;

/** The within-group sums of the groups that lie in one cell: their cells' stored sums (what pending rows change in them: `pendingTermsSql`). */
export const summaryGroupSumsSql = (where: Prisma.Sql) => Prisma.sql`
  SELECT ${Prisma.raw(TAKEN.map((k) => `coalesce(sum(c.strata_${k}), 0)::int AS "${k}_strata", coalesce(sum(c.n1_${k}), 0)::int AS "${k}_n1", coalesce(sum(c.n0_${k}), 0)::int AS "${k}_n0",
    coalesce(sum(c.numerator_${k}), 0)::float8 AS "${k}_numerator", coalesce(sum(c.weight_${k}), 0)::float8 AS "${k}_weight", coalesce(sum(c.variance_${k}), 0)::float8 AS "${k}_variance"`).join(", "))}
  FROM decision_group_sums c ${where}`;

/**
 * The within-group sums of the groups that span cells (all groups: `spanning` false): each group's counts added up
 * over the selected cells (a group split between cells is whole again), then the scan's sums.
 */
export const summaryWithinSql = (where: Prisma.Sql, spanning = true) => Prisma.sql`
  SELECT ${Prisma.raw(withinSums())} FROM (SELECT ${Prisma.raw(
    TAKEN.map((k) => `sum(c.n1_${k})::float8 AS n1_${k}, sum(c.a_${k})::float8 AS a_${k}, (sum(c.rows) - sum(c.n1_${k}))::float8 AS n0_${k}, (sum(c.e1_sum) - sum(c.a_${k}))::float8 AS c_${k}`).join(", "),
  )}
  FROM decision_groups c ${spanning ? and(where, Prisma.sql`c.spans`) : where} GROUP BY c.group_id) AS g`;

/** Per group: its rows' counts added up over the selected cells (`g`), and its pending rows' differences (`p`, E1's and per decision a's). */
const GROUP_SUMS = `c.group_id, sum(c.rows) AS rows, sum(c.e1_sum) AS e1_sum, ${TAKEN.map((k) => `sum(c.n1_${k}) AS n1_${k}, sum(c.a_${k}) AS a_${k}`).join(", ")}`;
const PENDING_SUMS = `c.group_id, sum(c.de) AS de, ${TAKEN.map((k) => `coalesce(sum(c.de) FILTER (WHERE c.${k}_taken), 0) AS a_${k}`).join(", ")}`;
const perGroup = (pending: boolean) =>
  TAKEN.map((k) => {
    const [a, e1] = pending ? [`(g.a_${k} + p.a_${k})`, "(g.e1_sum + p.de)"] : [`g.a_${k}`, "g.e1_sum"];
    return `g.n1_${k}::float8 AS n1_${k}, ${a}::float8 AS a_${k}, (g.rows - g.n1_${k})::float8 AS n0_${k}, (${e1} - ${a})::float8 AS c_${k}`;
  }).join(", ");

/**
 * The spanning groups that have pending rows in the selected cells: their within-group sums with what is pending
 * (`pending` true) and as stored (false); the difference is what the pending rows change in summaryWithinSql's sums.
 * A pending row lies in a cell where its group has a row, and `spans` is the same on all of a group's rows. Only
 * the groups with pending rows are read (by group id), so the read costs nothing more when nothing is pending.
 */
export const pendingWithinSql = (where: Prisma.Sql) => Prisma.sql`
  WITH p AS (SELECT ${Prisma.raw(PENDING_SUMS)} FROM decision_pending c ${and(where, Prisma.sql`c.group_id IS NOT NULL`)} GROUP BY c.group_id),
  g AS (SELECT ${Prisma.raw(GROUP_SUMS)} FROM decision_groups c ${and(where, Prisma.sql`c.spans AND c.group_id IN (SELECT group_id FROM p)`)} GROUP BY c.group_id)
  SELECT true AS pending, ${Prisma.raw(withinSums())} FROM (SELECT ${Prisma.raw(perGroup(true))} FROM g JOIN p ON p.group_id = g.group_id) AS g
  UNION ALL
  SELECT false, ${Prisma.raw(withinSums())} FROM (SELECT ${Prisma.raw(perGroup(false))} FROM g) AS g`;

/** What the pending rows change in the stored sums of the groups that lie in one cell (numerator and variance per decision). */
export const pendingTermsSql = (where: Prisma.Sql) => Prisma.sql`${Prisma.raw(PENDING_TERMS.head)} ${and(where, Prisma.sql`c.group_id IS NOT NULL`)} ${Prisma.raw(PENDING_TERMS.tail)}`;

type SummaryTally = { traces: number | null; n: number | null; successes: number | null; r_sum: number | null };
const tallyOf = (r: SummaryTally): Tally => ({ traces: r.traces ?? 0, n: r.n ?? 0, successes: r.successes ?? 0, r_sum: r.r_sum ?? 0 });

/** The tallies from the decision summaries of the cells `where` selects (docs/scale.md, "Decision summaries"). */
export async function summaryTallies(where: Prisma.Sql): Promise<DecisionTallies> {
  const [tallies, checkpoints, [spanning], [contained], [pending], moved] = await Promise.all([
    readPrepared<SummaryTally & { dim: string; value: string | null }>(summaryTalliesSql(where)),
    readPrepared<SummaryTally & { g: number; policy_version: string | null } & Record<string, number | null>>(summaryCheckpointsSql(where)),
    readPrepared<Record<string, number>>(summaryWithinSql(where)),
    readPrepared<Record<string, number>>(summaryGroupSumsSql(where)),
    readPrepared<Record<string, number>>(pendingTermsSql(where)),
    readPrepared<Record<string, number> & { pending: boolean }>(pendingWithinSql(where)),
  ]);
  const t = emptyTallies();
  for (const r of tallies) {
    const tally = tallyOf(r);
    const dim = r.dim;
    if (dim === "stop_reason") t.buckets.stop_reason.set(r.value ?? NO_STOP, tally);
    else if (dim === "verdict") t.buckets.verdict.set(r.value ?? NO_VERDICT, tally);
    else t.buckets[dim as "agents_spawned" | "delegate_role" | "messages_per_agent" | "aggregate_fan_in"].set(r.value!, tally);
  }
  for (const r of checkpoints) {
    if (r.g === 1) {
      t.total = tallyOf(r);
      for (const k of TAKEN) {
        const [taken, not] = [tallyOf({ traces: r[`taken_${k}`]!, n: r[`n_${k}`]!, successes: r[`successes_${k}`]!, r_sum: r[`r_sum_${k}`]! }), tallyOf({ traces: r[`traces_not_${k}`]!, n: r[`n_not_${k}`]!, successes: r[`successes_not_${k}`]!, r_sum: r[`r_sum_not_${k}`]! })];
        // the scan has a tally only for an arm with traces (else the empty one): the same numbers
        t.taken[k] = { taken: taken.traces > 0 ? taken : emptyTally(), not_taken: not.traces > 0 ? not : emptyTally() };
      }
    } else t.checkpoints.set(r.policy_version, { tally: tallyOf(r), taken: Object.fromEntries(TAKEN.map((k) => [k, r[`taken_${k}`] ?? 0])) as Record<DecisionKey, number> });
  }
  // the spanning groups' sums as stored, less those of the groups with pending rows as stored, plus theirs with them
  const [withPending, asStored] = [moved.find((r) => r.pending)!, moved.find((r) => !r.pending)!];
  const spanningNow = (key: string) => spanning![key]! - asStored[key]! + withPending[key]!;
  const both = (k: DecisionKey, sum: string) => spanningNow(`${k}_${sum}`) + contained![`${k}_${sum}`]! + (pending![`${k}_${sum}`] ?? 0);
  for (const k of TAKEN) {
    t.within[k] = { strata: both(k, "strata"), n1: both(k, "n1"), n0: both(k, "n0"), numerator: both(k, "numerator"), weight: both(k, "weight"), variance: both(k, "variance") };
  }
  return t;
}

/** The tallies by the one-statement scan of the selected rows. */
export async function scanTallies(f: DecisionFilter, readable: string[] | null): Promise<DecisionTallies> {
  const rows = await readPrepared<TallyRow & Record<string, number>>(decisionsSql(whereSql(f, readable)));
  // no rows selected: the () set still makes one row, with the within-group sums beside it
  return talliesFromRows(rows, rows[0]!);
}

/**
 * `GET /api/decisions`: the report over the filter, limited to the projects the caller may read (null: all).
 * From the decision summaries when the filter is on their grain, else by the scan.
 */
export async function decisionAnalytics(f: DecisionFilter, readable: string[] | null): Promise<DecisionReport> {
  const where = decisionCellWhere(f, readable);
  return decisionReport(where === null ? await scanTallies(f, readable) : await summaryTallies(where));
}
