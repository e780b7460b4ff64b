import "server-only";
import { pool } from "../db/client";
import { rebuildSql, triggerSql } from "./sql";

/**
 * Recomputes the metric summaries from the stored traces, in one transaction
 * (writes to traces wait meanwhile: the table is locked in SHARE mode), and
 * installs the triggers again from the catalogue. Returns the cells written.
 */
export async function rebuildSummaries(): Promise<{ cells: number; seconds: number }> {
  const started = performance.now();
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    await client.query(triggerSql());
    for (const statement of rebuildSql()) await client.query(statement);
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM summary_cells");
    await client.query("COMMIT");
    return { cells: rows[0]!.n, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  } finally {
    client.release();
  }
}
