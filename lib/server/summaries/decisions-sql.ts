/**
 * The SQL of the decision summaries (prisma/schema.prisma DecisionSummaryRow,
 * DecisionTally, DecisionGroup; docs/scale.md "Decision summaries"): what
 * `GET /api/decisions` adds up, kept per (project, system, topology,
 * checkpoint, UTC day) cell.
 *
 * A trace counts once it has both rows, traces and trace_decisions, and
 * what it counts is read from both. Statement-level triggers on both tables
 * (AFTER UPDATE and DELETE on traces; AFTER INSERT, UPDATE and DELETE on
 * trace_decisions; a traces row is inserted before its trace_decisions row
 * can be) take the ids of the rows the statement changed, read those traces'
 * joined rows as they now are, compare them with what the summaries last
 * counted for them (decision_summary_rows) and add the difference: -1 for
 * the row counted before, +1 for the row as it is now. Because each trigger
 * compares with what was counted rather than with its statement's old rows,
 * a statement that writes both tables (the recompute after a label rewrites
 * E1 on traces and R_total on trace_decisions in one statement), or the
 * delete of a trace (whose trace_decisions row goes by cascade, before either
 * trigger runs), is counted exactly once, in whichever order the triggers run.
 * A change of E1's value and R_total only (a label's recompute) is appended to
 * decision_pending, without the general path's join and grouping and without
 * reading or locking a summary row: for one trace, by key from variables
 * (singleTraceSql); for several, in one statement (valuesOnlySql). The reads
 * add the pending rows to what the summaries hold (TALLY_ROWS, PENDING_TERMS,
 * lib/server/decisions/analytics.ts); the fold (baton_decision_fold, run by
 * a job and by the general path for the traces it changes) moves them into
 * the summaries in place.
 *
 * No "server-only" import: scripts/summaries-sql.ts prints the migration.
 */
import { DECISIONS } from "@/lib/decisions/buckets";

const TAKEN = DECISIONS.map((d) => d.key);

/** The columns of decision_summary_rows, and their value read from traces `t` JOIN trace_decisions `d`. */
const ROW: readonly (readonly [string, string])[] = [
  ["trace_id", "t.id"],
  ["project_id", "t.project_id"],
  ["system", "t.system"],
  ["topology", "t.topology"],
  ["policy_version", "d.policy_version"],
  ["day", "(t.created_at AT TIME ZONE 'UTC')::date"],
  ["group_id", "t.group_id"],
  ["e1", "t.e1"],
  ["stop_reason", "t.stop_reason"],
  ["verdict", "t.verdict"],
  ["r_total", "d.r_total"],
  ...TAKEN.map((k) => [`${k}_taken`, `d.${k}_taken`] as const),
  ["agents_spawned_bucket", "d.agents_spawned_bucket"],
  ["delegate_role_buckets", "d.delegate_role_buckets"],
  ["messages_per_agent_bucket", "d.messages_per_agent_bucket"],
  ["aggregate_fan_in_bucket", "d.aggregate_fan_in_bucket"],
];
const NAMES = ROW.map(([name]) => name);
const list = (alias: string) => NAMES.map((n) => `${alias}.${n}`).join(", ");

/** The traces columns and trace_decisions columns a decision summary reads (an UPDATE that changes none of them changes nothing). */
const TRACE_COLUMNS = ["project_id", "system", "topology", "created_at", "group_id", "e1", "stop_reason", "verdict"];
const DECISION_COLUMNS = ["policy_version", "r_total", ...TAKEN.map((k) => `${k}_taken`), "agents_spawned_bucket", "delegate_role_buckets", "messages_per_agent_bucket", "aggregate_fan_in_bucket"];
const changedIds = (id: string, columns: string[]) =>
  `SELECT n.${id} AS id FROM old_rows o JOIN new_rows n ON n.${id} = o.${id} WHERE ${columns.map((c) => `o.${c} IS DISTINCT FROM n.${c}`).join(" OR ")}`;

/** The joined rows as they now are, of the traces whose ids `ids` selects (null: of every trace). */
const joined = (ids: string | null) =>
  `SELECT ${ROW.map(([name, value]) => `${value} AS ${name}`).join(", ")} FROM traces t JOIN trace_decisions d ON d.trace_id = t.id${ids === null ? "" : ` WHERE t.id IN (${ids})`}`;

/** The tallies' (dimension, value) pairs of a delta row `x`: the total, every bucket dimension once, delegate roles once per role. */
const TALLY_VALUES = `CROSS JOIN LATERAL (
    SELECT v.dim, v.value FROM (VALUES ('total', NULL::text),
      ('agents_spawned', x.agents_spawned_bucket), ('messages_per_agent', x.messages_per_agent_bucket), ('aggregate_fan_in', x.aggregate_fan_in_bucket),
      ('stop_reason', x.stop_reason::text), ('verdict', x.verdict::text)) AS v(dim, value)
    UNION ALL SELECT 'delegate_role', role FROM unnest(x.delegate_role_buckets) AS role) AS tv`;

const GRAIN = "x.project_id, x.system, x.topology, x.policy_version, x.day";
const GRAIN_COLS = "project_id, system, topology, policy_version, day";
/** Per decision, in the total rows: traces that took it, their E1 count and successes, their R_total's sum. */
const TAKEN_COLS = TAKEN.flatMap((k) => [`taken_${k}`, `n_${k}`, `successes_${k}`, `r_sum_${k}`]);
const takenSums = (k: string) => {
  const f = `FILTER (WHERE tv.dim = 'total' AND x.${k}_taken)`;
  return [`coalesce(sum(x.sign) ${f}, 0)`, `coalesce(sum(x.sign) FILTER (WHERE tv.dim = 'total' AND x.${k}_taken AND x.e1 IS NOT NULL), 0)`, `coalesce(sum(x.sign * x.e1) ${f}, 0)`, `coalesce(sum(x.sign * x.r_total::numeric) ${f}, 0)`];
};
const GROUP_COLS = ["rows", "e1_sum", ...TAKEN.flatMap((k) => [`n1_${k}`, `a_${k}`])];

/**
 * The statement that adds the signed rows of `delta` (sign, then decision_summary_rows' columns, as `x`)
 * to the tallies and the groups, and returns the keys of rows it left at zero (to drop) as `zt`, `zg`.
 * `extra`: more data-modifying CTEs run in the same statement (the trigger's rewrite of what was counted).
 */
function applySql(delta: string, extra = ""): string {
  return `WITH x AS MATERIALIZED (${delta}),${extra}
  tal AS (
    INSERT INTO decision_tallies AS s (key, ${GRAIN_COLS}, dim, value, traces, n, successes, r_sum, ${TAKEN_COLS.join(", ")})
    SELECT jsonb_build_array(${GRAIN}, tv.dim, tv.value)::text, ${GRAIN}, tv.dim, tv.value, sum(x.sign), coalesce(sum(x.sign) FILTER (WHERE x.e1 IS NOT NULL), 0),
      coalesce(sum(x.sign * x.e1), 0), sum(x.sign * x.r_total::numeric), ${TAKEN.flatMap(takenSums).join(", ")}
    FROM x ${TALLY_VALUES}
    GROUP BY ${GRAIN}, tv.dim, tv.value
    HAVING sum(x.sign) <> 0 OR sum(x.sign * x.e1) <> 0 OR sum(x.sign) FILTER (WHERE x.e1 IS NOT NULL) <> 0 OR sum(x.sign * x.r_total::numeric) <> 0
      OR (tv.dim = 'total' AND (${TAKEN.flatMap(takenSums).map((e) => `${e} <> 0`).join(" OR ")}))
    ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET traces = s.traces + excluded.traces, n = s.n + excluded.n, successes = s.successes + excluded.successes,
      r_sum = s.r_sum + excluded.r_sum, ${TAKEN_COLS.map((c) => `${c} = s.${c} + excluded.${c}`).join(", ")}
    RETURNING s.key, s.traces),
  grp AS (
    INSERT INTO decision_groups AS s (key, ${GRAIN_COLS}, group_id, ${GROUP_COLS.join(", ")})
    SELECT jsonb_build_array(${GRAIN}, x.group_id)::text, ${GRAIN}, x.group_id, sum(x.sign), sum(x.sign * x.e1),
      ${TAKEN.map((k) => `coalesce(sum(x.sign) FILTER (WHERE x.${k}_taken), 0), coalesce(sum(x.sign * x.e1) FILTER (WHERE x.${k}_taken), 0)`).join(", ")}
    FROM x WHERE x.group_id IS NOT NULL AND x.e1 IS NOT NULL
    GROUP BY ${GRAIN}, x.group_id
    HAVING sum(x.sign) <> 0 OR sum(x.sign * x.e1) <> 0 OR ${TAKEN.map((k) => `sum(x.sign) FILTER (WHERE x.${k}_taken) <> 0 OR sum(x.sign * x.e1) FILTER (WHERE x.${k}_taken) <> 0`).join(" OR ")}
    ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET ${GROUP_COLS.map((c) => `${c} = s.${c} + excluded.${c}`).join(", ")}
    RETURNING s.key, s.rows)
  SELECT (SELECT array_agg(key) FROM tal WHERE traces = 0), (SELECT array_agg(key) FROM grp WHERE rows = 0)`;
}

/** Per decision, the within-group terms of a decision_groups row `g` (lib/decisions/difference.ts addStratum), in numeric; zero without both arms. */
function groupTerms(k: string, g = "g"): [string, string][] {
  const [n1, a, n0, c] = [`${g}.n1_${k}::numeric`, `${g}.a_${k}::numeric`, `(${g}.rows - ${g}.n1_${k})::numeric`, `(${g}.e1_sum - ${g}.a_${k})::numeric`];
  const when = (e: string) => `CASE WHEN ${g}.n1_${k} > 0 AND ${g}.rows > ${g}.n1_${k} THEN ${e} ELSE 0 END`;
  return [
    [`strata_${k}`, when("1")],
    [`n1_${k}`, when(`${g}.n1_${k}`)],
    [`n0_${k}`, when(`${g}.rows - ${g}.n1_${k}`)],
    [`numerator_${k}`, when(`(${a} * ${n0} - ${c} * ${n1}) / (${n1} + ${n0})`)],
    [`weight_${k}`, when(`${n1} * ${n0} / (${n1} + ${n0})`)],
    [`variance_${k}`, when(`(${a} * (${n1} - ${a}) * ${n0} ^ 3 + ${c} * (${n0} - ${c}) * ${n1} ^ 3) / (${n1} * ${n0} * (${n1} + ${n0}) ^ 2)`)],
  ];
}
const TERMS = TAKEN.flatMap((k) => groupTerms(k));
const G_GRAIN = "g.project_id, g.system, g.topology, g.policy_version, g.day";

/** Adds (`sign` 1) or subtracts (-1) the terms of the decision_groups rows `g` that `where` selects to their cells' decision_group_sums; returns the keys. */
const groupSumsSql = (sign: 1 | -1, where: string, from = "decision_groups g") => `INSERT INTO decision_group_sums AS s (key, ${GRAIN_COLS}, ${TERMS.map(([c]) => c).join(", ")})
    SELECT jsonb_build_array(${G_GRAIN})::text, ${G_GRAIN}, ${TERMS.map(([, e]) => `${sign < 0 ? "-" : ""}sum(${e})`).join(", ")}
    FROM ${from} WHERE ${where} GROUP BY ${G_GRAIN} ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET ${TERMS.map(([c]) => `${c} = s.${c} + excluded.${c}`).join(", ")}
    RETURNING s.key`;

/** After the groups' rows changed: which of the groups `ga` now span cells (flagged), and the terms of those in one cell added to it. */
const respanSql = `WITH span AS (SELECT group_id, count(*) AS cells FROM decision_groups WHERE group_id = ANY(ga) GROUP BY group_id),
    flag AS (UPDATE decision_groups d SET spans = sp.cells > 1 FROM span sp WHERE d.group_id = sp.group_id AND d.spans <> (sp.cells > 1)),
    ins AS (${groupSumsSql(1, "sp.cells = 1", "decision_groups g JOIN span sp ON sp.group_id = g.group_id")})
  SELECT array_agg(key) FROM ins`;

/** Drops the cells' sums left at zero (no group with both arms of any decision). */
const dropZeroSums = `DELETE FROM decision_group_sums WHERE key = ANY(zs) AND ${TAKEN.map((k) => `strata_${k} = 0`).join(" AND ")}`;

/**
 * The columns of a counted row that stay when a write moves only its E1's value (not whether it has
 * one) and its R_total: a label's recompute. Then every row of the summaries the trace counts in stays
 * where it is, with the same traces and rows; only sums move (below, `valuesOnlySql`).
 */
const KEPT = NAMES.filter((n) => n !== "trace_id" && n !== "e1" && n !== "r_total");

/** The columns of decision_pending: a values-only change of one trace, waiting to be folded into the summaries. */
const PENDING = ["trace_id", ...KEPT, "de", "dr"];
/** E1's and R_total's differences between the counted row `w` and the row now `n`. */
const DE = (w: string, n: string) => `coalesce(${n}.e1 - ${w}.e1, 0)`;
const DR = (w: string, n: string) => `${n}.r_total::numeric - ${w}.r_total::numeric`;
/** A pending row's values from the counted row `w` and those differences: its group only when the trace counts in one (it has an E1). */
const pendingValues = (w: string, de: string, dr: string) =>
  PENDING.map((c) => (c === "group_id" ? `CASE WHEN ${w}.e1 IS NOT NULL THEN ${w}.group_id END` : c === "de" ? de : c === "dr" ? dr : `${w}.${c}`)).join(", ");

/**
 * The values-only case, for the traces whose counted row (`was`) and joined row now (`now`) differ only
 * in E1's value and R_total: their differences appended to decision_pending (the reads add them; the
 * fold, below, moves them into the summaries) and the counted rows rewritten. No summary row is read or
 * locked, so no group lock either.
 */
function valuesOnlySql(ctes: string): string {
  return `WITH ${ctes},
  x AS MATERIALIZED (SELECT ${list("w")}, n.e1 AS e1_now, n.r_total AS r_now, ${DE("w", "n")} AS de, ${DR("w", "n")} AS dr
    FROM was w JOIN now n ON n.trace_id = w.trace_id WHERE (w.e1, w.r_total) IS DISTINCT FROM (n.e1, n.r_total)),
  appended AS (INSERT INTO decision_pending (${PENDING.join(", ")}) SELECT ${pendingValues("x", "x.de", "x.dr")} FROM x)
  UPDATE decision_summary_rows r SET e1 = x.e1_now, r_total = x.r_now FROM x WHERE r.trace_id = x.trace_id`;
}

/**
 * The fold: the pending rows whose ids are in `ids` taken out of decision_pending and added to the
 * summaries in place (E1's differences to the tallies' successes and the groups' E1 sums and a,
 * R_total's to the tallies' sums); no row is added or dropped and no group changes cells, so there is
 * nothing to drop or flag. The upserts go in key order like the general path's and find every key (a
 * pending row's trace counts in those rows: a change that moves it elsewhere folds its rows first). It
 * returns the groups that lie in one cell with both arms of some decision (`gkeys`) and their differences
 * (`gdiff`: E1's, then per decision a's): only their cells' sums change, by the new terms less the old
 * (`foldSumsSql`); and how many rows it folded.
 */
function foldSql(): string {
  const takenDeltas = (k: string) => ["0", "0", `coalesce(sum(x.de) FILTER (WHERE tv.dim = 'total' AND x.${k}_taken), 0)`, `coalesce(sum(x.dr) FILTER (WHERE tv.dim = 'total' AND x.${k}_taken), 0)`];
  const moved = ["successes", "r_sum", ...TAKEN.flatMap((k) => [`successes_${k}`, `r_sum_${k}`])];
  return `WITH x AS MATERIALIZED (DELETE FROM decision_pending WHERE id = ANY(ids) RETURNING *),
  tal AS (
    INSERT INTO decision_tallies AS s (key, ${GRAIN_COLS}, dim, value, traces, n, successes, r_sum, ${TAKEN_COLS.join(", ")})
    SELECT jsonb_build_array(${GRAIN}, tv.dim, tv.value)::text, ${GRAIN}, tv.dim, tv.value, 0, 0, sum(x.de), sum(x.dr), ${TAKEN.flatMap(takenDeltas).join(", ")}
    FROM x ${TALLY_VALUES}
    GROUP BY ${GRAIN}, tv.dim, tv.value
    ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET ${moved.map((c) => `${c} = s.${c} + excluded.${c}`).join(", ")}),
  gd AS (
    SELECT jsonb_build_array(${GRAIN}, x.group_id)::text AS key, ${GRAIN}, x.group_id, ARRAY[sum(x.de), ${TAKEN.map((k) => `coalesce(sum(x.de) FILTER (WHERE x.${k}_taken), 0)`).join(", ")}]::int[] AS d
    FROM x WHERE x.group_id IS NOT NULL
    GROUP BY ${GRAIN}, x.group_id),
  grp AS (
    INSERT INTO decision_groups AS s (key, ${GRAIN_COLS}, group_id, ${GROUP_COLS.join(", ")})
    SELECT gd.key, ${GRAIN_COLS}, gd.group_id, 0, gd.d[1], ${TAKEN.map((k, i) => `0, gd.d[${i + 2}]`).join(", ")} FROM gd ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET e1_sum = s.e1_sum + excluded.e1_sum, ${TAKEN.map((k) => `a_${k} = s.a_${k} + excluded.a_${k}`).join(", ")}
    RETURNING s.key, s.spans, ${TAKEN.map((k) => `s.n1_${k} > 0 AND s.rows > s.n1_${k}`).join(" OR ")} AS arms)
  SELECT array_agg(g.key), array_agg(gd.d), (SELECT count(*)::int FROM x) FROM grp g JOIN gd ON gd.key = g.key WHERE g.spans IS NOT TRUE AND g.arms`;
}

/** The term columns that depend on a group's E1 (the others read only its rows and n1, which a values-only change keeps). */
const E1_TERMS = TERMS.filter(([c]) => c.startsWith("numerator_") || c.startsWith("variance_"));

/**
 * The cells' sums of the groups `gkeys` (in one cell, with both arms) after the fold, whose
 * differences `gdiff` its upsert added: each group's new terms less its old, the old counts being the
 * new less the difference (the group's row as this transaction locked it, not as an earlier snapshot read
 * it). Its cell's row exists: the group's terms are in it.
 */
const foldSumsSql = (() => {
  const old = `SELECT g.rows, g.e1_sum - gdiff[k.i][1] AS e1_sum, ${TAKEN.map((k, i) => `g.n1_${k}, g.a_${k} - gdiff[k.i][${i + 2}] AS a_${k}`).join(", ")}`;
  const oldTerms = new Map(TAKEN.flatMap((k) => groupTerms(k, "o")));
  const e1Term = new Set(E1_TERMS.map(([c]) => c));
  return `INSERT INTO decision_group_sums AS s (key, ${GRAIN_COLS}, ${TERMS.map(([c]) => c).join(", ")})
    SELECT jsonb_build_array(${G_GRAIN})::text, ${G_GRAIN}, ${TERMS.map(([c, e]) => (e1Term.has(c) ? `sum(${e}) - sum(${oldTerms.get(c)!})` : "0")).join(", ")}
    FROM unnest(gkeys) WITH ORDINALITY AS k(key, i) JOIN decision_groups g ON g.key = k.key CROSS JOIN LATERAL (${old}) AS o
    GROUP BY ${G_GRAIN} ORDER BY 1
    ON CONFLICT (key) DO UPDATE SET ${E1_TERMS.map(([c]) => `${c} = s.${c} + excluded.${c}`).join(", ")}`;
})();

/**
 * The tally rows as the reads see them: decision_tallies' and, per pending row and each of its
 * dimension values, its differences (no traces, no counts: a pending change keeps them).
 */
export const TALLY_ROWS = `(SELECT ${GRAIN_COLS}, dim, value, traces, n, successes, r_sum, ${TAKEN_COLS.join(", ")} FROM decision_tallies
  UNION ALL SELECT ${GRAIN}, tv.dim, tv.value, 0, 0, x.de, x.dr, ${TAKEN.flatMap((k) => ["0", "0", `CASE WHEN tv.dim = 'total' AND x.${k}_taken THEN x.de ELSE 0 END`, `CASE WHEN tv.dim = 'total' AND x.${k}_taken THEN x.dr ELSE 0 END`]).join(", ")}
  FROM decision_pending x ${TALLY_VALUES})`;

/**
 * What the pending rows change in the stored sums of the groups that lie in one cell: per such group,
 * its terms with the pending differences less its terms as stored (numerator and variance: the others
 * read only rows and n1, which stay), added up as "<decision>_numerator" and "<decision>_variance".
 * decision_pending is `c`, filtered by the caller's WHERE between `head` and `tail` (with the rows
 * that have a group).
 */
export const PENDING_TERMS = (() => {
  const [stored, pending] = [new Map(TAKEN.flatMap((k) => groupTerms(k, "og"))), new Map(TAKEN.flatMap((k) => groupTerms(k, "ng")))];
  const name = (c: string) => c.replace(/^(numerator|variance)_(.*)$/, "$2_$1");
  return {
    head: `SELECT ${E1_TERMS.map(([c]) => `coalesce(sum(${pending.get(c)!}) - sum(${stored.get(c)!}), 0)::float8 AS "${name(c)}"`).join(", ")}
  FROM (SELECT jsonb_build_array(c.project_id, c.system, c.topology, c.policy_version, c.day, c.group_id)::text AS key, sum(c.de) AS de,
    ${TAKEN.map((k) => `coalesce(sum(c.de) FILTER (WHERE c.${k}_taken), 0) AS a_${k}`).join(", ")} FROM decision_pending c`,
    tail: `GROUP BY 1) AS p JOIN decision_groups og ON og.key = p.key AND NOT og.spans
  CROSS JOIN LATERAL (SELECT og.rows, og.e1_sum + p.de AS e1_sum, ${TAKEN.map((k) => `og.n1_${k}, og.a_${k} + p.a_${k} AS a_${k}`).join(", ")}) AS ng`,
  };
})();

/** The advisory-lock class of decision groups (beside 7031 judges' units and 7032 blame models). */
export const GROUP_LOCK_CLASS = 7033;

/**
 * Writers of one group, one at a time: a transaction-level advisory lock per group (of the group ids in
 * the text[] `groups`), taken in the order of their keys before any summary row is read or locked. A
 * group's row, and the terms its cell's sums hold for it, are read by the statements after it, each
 * with a snapshot taken once the writer before has committed; without it, two writers changing
 * rollouts of one group at once would both take the group's terms out as they were before either, and
 * the cell's sums would keep the first one's change twice.
 */
const groupLocks = (groups: string) =>
  `PERFORM pg_advisory_xact_lock(${GROUP_LOCK_CLASS}, k) FROM (SELECT DISTINCT hashtext(g) AS k FROM unnest(${groups}) AS g) AS l ORDER BY k`;

/**
 * The values-only case of a statement that changed one trace (a label's recompute), with no set-based
 * statement: the trace's joined row now (`nrow`) and its counted row (`wrow`) read by key into
 * variables; nothing else to do when they are equal (the second trigger of a statement that wrote both
 * tables). Else, when they differ only in E1's value and R_total, the differences are appended to
 * decision_pending and the counted row rewritten: no summary row is read or locked. Any other case
 * falls through to the set-based statements below.
 */
function singleTraceSql(): string {
  const readNow = `SELECT ${ROW.map(([name, value]) => `${value} AS ${name}`).join(", ")} INTO nrow FROM traces t JOIN trace_decisions d ON d.trace_id = t.id WHERE t.id = tids[1]`;
  const readWas = `SELECT ${NAMES.join(", ")} INTO wrow FROM decision_summary_rows WHERE trace_id = tids[1]`;
  const cols = (r: string, names: readonly string[]) => names.map((c) => `${r}.${c}`).join(", ");
  return `IF cardinality(tids) = 1 THEN
    ${readNow};
    found_now := FOUND;
    ${readWas};
    IF FOUND AND found_now THEN
      IF (${cols("wrow", NAMES)}) IS NOT DISTINCT FROM (${cols("nrow", NAMES)}) THEN
        RETURN NULL;
      END IF;
      IF (wrow.e1 IS NULL) = (nrow.e1 IS NULL) AND (${cols("wrow", KEPT)}) IS NOT DISTINCT FROM (${cols("nrow", KEPT)}) THEN
        INSERT INTO decision_pending (${PENDING.join(", ")}) VALUES (${pendingValues("wrow", DE("wrow", "nrow"), DR("wrow", "nrow"))});
        UPDATE decision_summary_rows SET e1 = nrow.e1, r_total = nrow.r_total WHERE trace_id = wrow.trace_id;
        RETURN NULL;
      END IF;
    END IF;
  END IF;`;
}

/** The trigger's statements for the traces whose ids `ids` selects: the difference between their joined rows now and what was counted. */
function triggerBody(ids: string): string {
  const ctes = `ids AS (SELECT DISTINCT id FROM unnest(tids) AS i(id)),
      now AS (${joined("SELECT id FROM ids")}),
      was AS (SELECT ${NAMES.join(", ")} FROM decision_summary_rows WHERE trace_id IN (SELECT id FROM ids))`;
  const differs = `(${list("w")}) IS DISTINCT FROM (${list("n")})`;
  const delta = `WITH ${ctes}
    SELECT -1 AS sign, ${list("w")} FROM was w LEFT JOIN now n ON n.trace_id = w.trace_id WHERE n.trace_id IS NULL OR ${differs}
    UNION ALL
    SELECT 1, ${list("n")} FROM now n LEFT JOIN was w ON w.trace_id = n.trace_id WHERE w.trace_id IS NULL OR ${differs}`;
  const rewrite = `
  gone AS (DELETE FROM decision_summary_rows r USING x WHERE x.sign < 0 AND r.trace_id = x.trace_id AND NOT EXISTS (SELECT 1 FROM x y WHERE y.sign > 0 AND y.trace_id = x.trace_id)),
  kept AS (
    INSERT INTO decision_summary_rows AS r (${NAMES.join(", ")}) SELECT ${NAMES.join(", ")} FROM x WHERE x.sign > 0 ORDER BY trace_id
    ON CONFLICT (trace_id) DO UPDATE SET ${NAMES.slice(1).map((n) => `${n} = excluded.${n}`).join(", ")}),`;
  const valuesOnly = `w.trace_id IS NOT NULL AND n.trace_id IS NOT NULL AND (w.e1 IS NULL) = (n.e1 IS NULL) AND (${KEPT.map((c) => `w.${c}`).join(", ")}) IS NOT DISTINCT FROM (${KEPT.map((c) => `n.${c}`).join(", ")})`;
  const groups = (a: string) => `array_agg(${a}.group_id) FILTER (WHERE ${a}.group_id IS NOT NULL AND ${a}.e1 IS NOT NULL)`;
  const changedTrace = "coalesce(w.trace_id, n.trace_id)";
  // most statements change nothing counted (a metric rewritten, or the second of two triggers of one statement): a look first,
  // which also tells whether every change is values-only (a label's: appended, below), names the groups whose counts
  // change and the traces that change
  // the ids first, into a variable: the statements below then name no transition table, and keep their plans from call to call
  return `SELECT array_agg(id) INTO tids FROM (${ids}) AS i(id);
  IF tids IS NULL THEN
    RETURN NULL;
  END IF;
  ${singleTraceSql()}
  WITH ${ctes}
  SELECT count(*), coalesce(bool_and(${valuesOnly}), false), ${groups("w")} || ${groups("n")}, array_agg(${changedTrace})
    FROM was w FULL JOIN now n ON n.trace_id = w.trace_id WHERE ${differs}
    INTO changed, fast, ga, ctids;
  IF changed = 0 THEN
    RETURN NULL;
  END IF;
  IF fast THEN
    ${valuesOnlySql(ctes)};
    RETURN NULL;
  END IF;
  IF ga IS NOT NULL THEN
    ${groupLocks("ga")};
  END IF;
  -- the changing traces' pending differences go into the summaries first, so that what is taken out below is what they hold
  -- (their groups are among those just locked: the fold's own locks are taken already)
  PERFORM baton_decision_fold(ctids, NULL);
  -- those groups leave their cell's sums (the ones that lay in one cell), and come back below as they are now
  -- ("IS NOT TRUE": found by the group_id index, not by the spans index that the read uses)
  IF ga IS NOT NULL THEN
    WITH r AS (${groupSumsSql(-1, "g.group_id = ANY(ga) AND g.spans IS NOT TRUE")}) SELECT array_agg(key) INTO zs FROM r;
  END IF;
  ${applySql(delta, rewrite)}
    INTO zt, zg;
  IF zt IS NOT NULL THEN DELETE FROM decision_tallies WHERE key = ANY(zt) AND traces = 0; END IF;
  IF zg IS NOT NULL THEN DELETE FROM decision_groups WHERE key = ANY(zg) AND rows = 0; END IF;
  IF ga IS NOT NULL THEN
    ${respanSql} INTO za;
    zs := coalesce(zs, '{}') || coalesce(za, '{}');
    ${dropZeroSums};
  END IF;`;
}

/**
 * The fold, as a function: the pending rows of the traces `traces` (null: the oldest `max_rows` of all;
 * null too: all), under the locks of their groups, added to the summaries; returns how many it folded.
 * The trigger's general path calls it for the traces it changes; the fold job (fold.ts) for the rest.
 */
const FOLD_FUNCTION = `CREATE OR REPLACE FUNCTION baton_decision_fold(traces int[], max_rows int) RETURNS int LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  ids bigint[];
  ga text[];
  gkeys text[];
  gdiff int[];
  folded int;
BEGIN
  IF traces IS NULL THEN
    SELECT array_agg(p.id), array_agg(DISTINCT p.group_id) FILTER (WHERE p.group_id IS NOT NULL) INTO ids, ga
      FROM (SELECT id, group_id FROM decision_pending ORDER BY id LIMIT max_rows) AS p;
  ELSE
    SELECT array_agg(p.id), array_agg(DISTINCT p.group_id) FILTER (WHERE p.group_id IS NOT NULL) INTO ids, ga
      FROM decision_pending p WHERE p.trace_id = ANY(traces);
  END IF;
  IF ids IS NULL THEN
    RETURN 0;
  END IF;
  IF ga IS NOT NULL THEN
    ${groupLocks("ga")};
  END IF;
  ${foldSql()}
    INTO gkeys, gdiff, folded;
  IF gkeys IS NOT NULL THEN
    ${foldSumsSql};
  END IF;
  RETURN folded;
END
$fn$;`;

const TRIGGERS = [
  { name: "traces_update", table: "traces", event: "UPDATE", transition: "OLD TABLE AS old_rows NEW TABLE AS new_rows", ids: changedIds("id", TRACE_COLUMNS) },
  { name: "traces_delete", table: "traces", event: "DELETE", transition: "OLD TABLE AS old_rows", ids: "SELECT id FROM old_rows" },
  { name: "decisions_insert", table: "trace_decisions", event: "INSERT", transition: "NEW TABLE AS new_rows", ids: "SELECT trace_id FROM new_rows" },
  { name: "decisions_update", table: "trace_decisions", event: "UPDATE", transition: "OLD TABLE AS old_rows NEW TABLE AS new_rows", ids: changedIds("trace_id", DECISION_COLUMNS) },
  { name: "decisions_delete", table: "trace_decisions", event: "DELETE", transition: "OLD TABLE AS old_rows", ids: "SELECT trace_id FROM old_rows" },
] as const;

/** The trigger functions and triggers of the decision summaries (the migration runs this; so does the rebuild, to refresh them). */
export function decisionTriggerSql(): string {
  return [FOLD_FUNCTION, ...TRIGGERS.map(
    // generic plans: the statements that take the changed groups as a parameter would otherwise be planned again on every call
    (t) => `CREATE OR REPLACE FUNCTION baton_decision_summaries_${t.name}() RETURNS trigger LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $fn$
DECLARE
  tids int[];
  changed bigint;
  fast boolean;
  ctids int[];
  nrow record;
  wrow record;
  found_now boolean;
  ga text[];
  zs text[];
  za text[];
  zt text[];
  zg text[];
BEGIN
  ${triggerBody(t.ids)}
  RETURN NULL;
END
$fn$;
DROP TRIGGER IF EXISTS decision_summaries_${t.name} ON ${t.table};
CREATE TRIGGER decision_summaries_${t.name} AFTER ${t.event} ON ${t.table} REFERENCING ${t.transition} FOR EACH STATEMENT EXECUTE FUNCTION baton_decision_summaries_${t.name}();`,
  )].join("\n\n");
}

/** The decision summaries from the stored rows, into empty tables (the migration's first fill; the rebuild's). */
export function decisionFillSql(): string[] {
  return [
    `INSERT INTO decision_summary_rows (${NAMES.join(", ")}) ${joined(null)}`,
    applySql(`SELECT 1 AS sign, ${NAMES.join(", ")} FROM decision_summary_rows`),
    "UPDATE decision_groups d SET spans = true FROM (SELECT group_id FROM decision_groups GROUP BY group_id HAVING count(*) > 1) s WHERE d.group_id = s.group_id",
    groupSumsSql(1, "NOT g.spans"),
    `DELETE FROM decision_group_sums WHERE ${TAKEN.map((k) => `strata_${k} = 0`).join(" AND ")}`,
  ];
}

/** Recomputes the decision summaries from the stored rows (in one transaction: the caller's). */
export function decisionRebuildSql(): string[] {
  return [
    "LOCK TABLE traces, trace_decisions IN SHARE MODE",
    "DELETE FROM decision_pending",
    "DELETE FROM decision_tallies",
    "DELETE FROM decision_group_sums",
    "DELETE FROM decision_groups",
    "DELETE FROM decision_summary_rows",
    ...decisionFillSql(),
  ];
}
