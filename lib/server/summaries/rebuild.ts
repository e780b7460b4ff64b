import "server-only";
import { pool } from "../db/client";
import { decisionRebuildSql, decisionTriggerSql } from "./decisions-sql";
import { rebuildSql, triggerSql } from "./sql";

/**
 * Recomputes the metric and decision summaries from the stored rows, in one
 * transaction (writes to traces and trace_decisions wait meanwhile: the
 * tables are locked in SHARE mode), and installs the triggers again from the
 * catalogue. Returns the metric cells and decision tally rows written.
 */
export async function rebuildSummaries(): Promise<{ cells: number; tallies: number; seconds: number }> {
  const started = performance.now();
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    await client.query(triggerSql());
    await client.query(decisionTriggerSql());
    for (const statement of [...rebuildSql(), ...decisionRebuildSql()]) await client.query(statement);
    const { rows } = await client.query<{ n: number; tallies: number }>("SELECT (SELECT count(*)::int FROM summary_cells) AS n, (SELECT count(*)::int FROM decision_tallies) AS tallies");
    await client.query("COMMIT");
    return { cells: rows[0]!.n, tallies: rows[0]!.tallies, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}
