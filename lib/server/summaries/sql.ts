/**
 * The SQL of the metric summaries (prisma/schema.prisma SummaryCell,
 * SummaryMetric, SummaryBin; docs/scale.md "Summaries"), generated from the
 * metric catalogue so that the trigger, the rebuild and the reads name the
 * same columns and make bin keys one way (lib/metrics/sketch.ts).
 *
 * Statement-level triggers on `traces` (AFTER INSERT, UPDATE, DELETE, with
 * transition tables) turn each statement's rows into signed deltas (+1 for a
 * row written, -1 for a row removed; an UPDATE counts only the rows whose
 * grain, E1, verdict or a metric changed) and add them to the summary rows in
 * the writer's transaction. Counts, sums and bin counts subtract exactly; a
 * removed value that was its cell's min or max (or a removed created_at its
 * cell's first) is recomputed from the cell's remaining traces.
 *
 * No "server-only" import: scripts/summaries-sql.ts prints the migration.
 */
import { METRIC_CATALOGUE, type MetricKind } from "@/lib/metrics/catalogue";
import { EXACT_INTEGER, GAMMA, UNIT_WIDTH } from "@/lib/metrics/sketch";
import { VERDICTS } from "@/lib/metrics/types";

const METRICS = METRIC_CATALOGUE.map((m) => ({ key: m.key, kind: m.kind }));

/** A metric column of row alias `x` as float8 (a boolean as 0/1) and as numeric for the exact sum. */
const asFloat = (x: string, m: { key: string; kind: MetricKind }) => (m.kind === "boolean" ? `(${x}.${m.key})::int::float8` : `(${x}.${m.key})::float8`);
const asNumeric = (x: string, m: { key: string; kind: MetricKind }) => (m.kind === "boolean" ? `(${x}.${m.key})::int::numeric` : `(${x}.${m.key})::numeric`);

/** The bin key of value expression `v` (float8) of a metric of this kind: lib/metrics/sketch.ts. */
export function binKeySql(v: string, kind: MetricKind): string {
  if (kind === "count" || kind === "boolean") return v;
  const lnGamma = Math.log(GAMMA);
  const scale = (2 / (GAMMA + 1)).toPrecision(17);
  const unit = kind === "unit" ? `WHEN ${v} >= 0 AND ${v} <= 1 THEN floor(${v} * ${1 / UNIT_WIDTH}::float8) / ${1 / UNIT_WIDTH}::float8 ` : "";
  return `(CASE ${unit}WHEN ${v} = 0 OR abs(${v}) >= 1e300::float8 OR abs(${v}) <= 1e-300::float8 OR (${v} = trunc(${v}) AND abs(${v}) <= ${EXACT_INTEGER}) THEN ${v}
    ELSE sign(${v}) * exp(ceil(ln(abs(${v})) / ${lnGamma.toPrecision(17)}::float8) * ${lnGamma.toPrecision(17)}::float8) * ${scale}::float8 END)`;
}

/** The grain of a row `x` of traces. */
const grain = (x: string) => ({
  key: `jsonb_build_array(${x}.project_id, ${x}.system, ${x}.topology, ${x}.metadata->>'policy_version', ((${x}.created_at AT TIME ZONE 'UTC')::date)::text)::text`,
  cols: `${x}.project_id, ${x}.system, ${x}.topology, ${x}.metadata->>'policy_version' AS pv, (${x}.created_at AT TIME ZONE 'UTC')::date AS day`,
});

/** The delta row of `x` with `sign`; `same`: whether the row stays in its cell (an UPDATE's), per metric whether it changed. */
function deltaCols(x: string, sign: string, same: string, changed: (key: string) => string): string {
  const g = grain(x);
  return [
    `${sign} AS sign`,
    `${g.key} AS key`,
    g.cols,
    `${x}.created_at`,
    `${changed("created_at")} AS c_created`,
    `${x}.e1`,
    `${x}.verdict::text AS verdict`,
    `${same} AS same_cell`,
    ...METRICS.map((m) => `${asFloat(x, m)} AS "f_${m.key}", ${asNumeric(x, m)} AS "n_${m.key}", ${changed(m.key)} AS "c_${m.key}"`),
  ].join(", ");
}

const grainOf = (x: string) => `${x}.project_id, ${x}.system, ${x}.topology, ${x}.metadata->>'policy_version', (${x}.created_at AT TIME ZONE 'UTC')::date`;

/** The deltas of one trigger operation (or of every stored row, for the rebuild). */
function deltas(op: "insert" | "delete" | "update" | "all"): string {
  if (op === "insert") return `SELECT ${deltaCols("n", "1", "false", () => "true")} FROM new_rows n`;
  if (op === "all") return `SELECT ${deltaCols("n", "1", "false", () => "true")} FROM traces n`;
  if (op === "delete") return `SELECT ${deltaCols("o", "-1", "false", () => "true")} FROM old_rows o`;
  const same = `((${grainOf("o")}) IS NOT DISTINCT FROM (${grainOf("n")}))`;
  const changed = (k: string) => `(o.${k} IS DISTINCT FROM n.${k})`;
  const any = `(NOT ${same} OR o.created_at IS DISTINCT FROM n.created_at OR o.e1 IS DISTINCT FROM n.e1 OR o.verdict IS DISTINCT FROM n.verdict OR ${METRICS.map((m) => changed(m.key)).join(" OR ")})`;
  return `SELECT ${deltaCols("o", "-1", same, changed)} FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE ${any}
    UNION ALL SELECT ${deltaCols("n", "1", same, changed)} FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE ${any}`;
}

/** Per delta row, one row per metric with a value that counts (a row that stays in its cell counts only its changed metrics). */
const metricValues = `CROSS JOIN LATERAL (VALUES ${METRICS.map((m) => `('${m.key}', d."f_${m.key}", d."n_${m.key}", ${binKeySql(`d."f_${m.key}"`, m.kind)}, d."c_${m.key}")`).join(",\n    ")}) AS mv(metric, v, num, bin, changed)
  WHERE mv.v IS NOT NULL AND (NOT d.same_cell OR mv.changed)`;

const verdictSums = [...VERDICTS.map((v) => `sum(sign) FILTER (WHERE verdict = '${v}') AS v_${v}`), `sum(sign) FILTER (WHERE verdict IS NULL) AS v_none`].join(", ");
const VERDICT_COLS = [...VERDICTS.map((v) => `v_${v}`), "v_none"];

/** The statement that adds the deltas of `op` to the summaries. */
function applySql(op: "insert" | "delete" | "update" | "all"): string {
  return `WITH d AS (${deltas(op)}),
  agg AS (
    SELECT key, project_id, system, topology, pv, day, sum(sign) AS traces,
      coalesce(sum(sign) FILTER (WHERE e1 IS NOT NULL), 0) AS e1_n, coalesce(sum(sign * e1) FILTER (WHERE e1 IS NOT NULL), 0) AS e1_successes,
      ${verdictSums}, min(created_at) FILTER (WHERE sign > 0) AS first_at
    FROM d GROUP BY key, project_id, system, topology, pv, day),
  c AS (
    INSERT INTO summary_cells AS c (key, project_id, system, topology, policy_version, day, traces, e1_n, e1_successes, ${VERDICT_COLS.join(", ")}, first_at)
    SELECT key, project_id, system, topology, pv, day, traces, e1_n, e1_successes, ${VERDICT_COLS.map((v) => `coalesce(${v}, 0)`).join(", ")}, first_at FROM agg ORDER BY key
    ON CONFLICT (key) DO UPDATE SET traces = c.traces + excluded.traces, e1_n = c.e1_n + excluded.e1_n, e1_successes = c.e1_successes + excluded.e1_successes,
      ${VERDICT_COLS.map((v) => `${v} = c.${v} + excluded.${v}`).join(", ")}, first_at = LEAST(c.first_at, excluded.first_at)
    RETURNING c.id, c.key),
  mv AS (SELECT d.key, d.sign, mv.metric, mv.v, mv.num, mv.bin FROM d ${metricValues}),
  m AS (
    INSERT INTO summary_metrics AS s (cell_id, metric, n, sum, min, max)
    SELECT c.id, mv.metric, sum(mv.sign), sum(mv.sign * mv.num), min(mv.v) FILTER (WHERE mv.sign > 0), max(mv.v) FILTER (WHERE mv.sign > 0)
    FROM mv JOIN c ON c.key = mv.key GROUP BY c.id, mv.metric ORDER BY c.id, mv.metric
    ON CONFLICT (cell_id, metric) DO UPDATE SET n = s.n + excluded.n, sum = s.sum + excluded.sum, min = LEAST(s.min, excluded.min), max = GREATEST(s.max, excluded.max))
  INSERT INTO summary_bins AS s (cell_id, metric, key, n)
  SELECT c.id, mv.metric, mv.bin, sum(mv.sign) FROM mv JOIN c ON c.key = mv.key GROUP BY c.id, mv.metric, mv.bin ORDER BY c.id, mv.metric, mv.bin
  ON CONFLICT (cell_id, metric, key) DO UPDATE SET n = s.n + excluded.n`;
}

/** The traces of cell `c` (uses the created_at index for the day). */
const cellTraces = `t.project_id = c.project_id AND t.system IS NOT DISTINCT FROM c.system AND t.topology IS NOT DISTINCT FROM c.topology
      AND (t.metadata->>'policy_version') IS NOT DISTINCT FROM c.policy_version
      AND t.created_at >= (c.day::timestamp AT TIME ZONE 'UTC') AND t.created_at < ((c.day + 1)::timestamp AT TIME ZONE 'UTC')`;

/** After removals: extremes recomputed where a removed value may have been one, then empty rows dropped. */
function repairSql(op: "delete" | "update"): string {
  return `
  FOR cell IN
    WITH d AS (${deltas(op)}),
    rm AS (SELECT d.key, mv.metric, min(mv.v) AS lo, max(mv.v) AS hi FROM d ${metricValues} AND d.sign < 0 GROUP BY d.key, mv.metric)
    SELECT c.id FROM rm JOIN summary_cells c ON c.key = rm.key JOIN summary_metrics s ON s.cell_id = c.id AND s.metric = rm.metric
      WHERE s.n > 0 AND (rm.lo <= s.min OR rm.hi >= s.max)
    UNION
    SELECT c.id FROM d JOIN summary_cells c ON c.key = d.key WHERE d.sign < 0 AND (NOT d.same_cell OR d.c_created) AND c.traces > 0 AND d.created_at <= c.first_at
  LOOP
    UPDATE summary_metrics s SET min = r.lo, max = r.hi
    FROM (SELECT mv.metric, min(mv.v) AS lo, max(mv.v) AS hi
          FROM summary_cells c JOIN traces t ON ${cellTraces}
          CROSS JOIN LATERAL (VALUES ${METRICS.map((m) => `('${m.key}', ${asFloat("t", m)})`).join(", ")}) AS mv(metric, v)
          WHERE c.id = cell.id AND mv.v IS NOT NULL GROUP BY mv.metric) r
    WHERE s.cell_id = cell.id AND s.metric = r.metric;
    UPDATE summary_cells c SET first_at = (SELECT min(t.created_at) FROM traces t WHERE ${cellTraces}) WHERE c.id = cell.id;
  END LOOP;
  WITH d AS (${deltas(op)}), k AS (SELECT DISTINCT c.id FROM d JOIN summary_cells c ON c.key = d.key WHERE d.sign < 0)
  DELETE FROM summary_bins s USING k WHERE s.cell_id = k.id AND s.n = 0;
  WITH d AS (${deltas(op)}), k AS (SELECT DISTINCT c.id FROM d JOIN summary_cells c ON c.key = d.key WHERE d.sign < 0)
  DELETE FROM summary_metrics s USING k WHERE s.cell_id = k.id AND s.n = 0;
  DELETE FROM summary_cells c WHERE c.traces = 0 AND c.key IN (SELECT d.key FROM (${deltas(op)}) d WHERE d.sign < 0);`;
}

/** Whether an UPDATE statement moved a row (to another cell, or in time) or changed a metric: only then can an extreme or a row become stale. */
const moved = `SELECT 1 FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE (${grainOf("o")}) IS DISTINCT FROM (${grainOf("n")}) OR o.created_at IS DISTINCT FROM n.created_at OR ${METRICS.map((m) => `o.${m.key} IS DISTINCT FROM n.${m.key}`).join(" OR ")}`;

/**
 * An UPDATE that moved no row and changed no metric (a label's recompute: E1, the verdict) changes only
 * the cells' E1 and verdict counts: one small UPDATE of the cells, no metric or bin row touched.
 */
const countsOnlySql = `UPDATE summary_cells c SET e1_n = c.e1_n + x.e1_n, e1_successes = c.e1_successes + x.e1_successes, ${VERDICT_COLS.map((v) => `${v} = c.${v} + coalesce(x.${v}, 0)`).join(", ")}
    FROM (SELECT key, coalesce(sum(sign) FILTER (WHERE e1 IS NOT NULL), 0) AS e1_n, coalesce(sum(sign * e1) FILTER (WHERE e1 IS NOT NULL), 0) AS e1_successes, ${verdictSums}
          FROM (SELECT -1 AS sign, ${grain("o").key} AS key, o.e1, o.verdict::text AS verdict FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.e1 IS DISTINCT FROM n.e1 OR o.verdict IS DISTINCT FROM n.verdict
                UNION ALL SELECT 1, ${grain("n").key}, n.e1, n.verdict::text FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.e1 IS DISTINCT FROM n.e1 OR o.verdict IS DISTINCT FROM n.verdict) d
          GROUP BY key ORDER BY key) x
    WHERE c.key = x.key;`;

/** The trigger functions and triggers (the migration runs this; so does the rebuild, to refresh them). */
export function triggerSql(): string {
  const fn = (op: "insert" | "delete" | "update") => `CREATE OR REPLACE FUNCTION baton_summaries_${op}() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  cell record;
BEGIN
  ${op === "update" ? `IF NOT EXISTS (${moved}) THEN\n    ${countsOnlySql}\n    RETURN NULL;\n  END IF;\n  ` : ""}${applySql(op).replace(/\n/g, "\n  ")};${op === "insert" ? "" : repairSql(op)}
  RETURN NULL;
END
$fn$;`;
  return [
    fn("insert"),
    fn("update"),
    fn("delete"),
    `DROP TRIGGER IF EXISTS summaries_insert ON traces;
CREATE TRIGGER summaries_insert AFTER INSERT ON traces REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_summaries_insert();`,
    `DROP TRIGGER IF EXISTS summaries_update ON traces;
CREATE TRIGGER summaries_update AFTER UPDATE ON traces REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_summaries_update();`,
    `DROP TRIGGER IF EXISTS summaries_delete ON traces;
CREATE TRIGGER summaries_delete AFTER DELETE ON traces REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_summaries_delete();`,
  ].join("\n\n");
}

/** Recomputes every summary row from the stored traces (in one transaction: the caller's). */
export function rebuildSql(): string[] {
  return ["LOCK TABLE traces IN SHARE MODE", "DELETE FROM summary_bins", "DELETE FROM summary_metrics", "DELETE FROM summary_cells", applySql("all")];
}
