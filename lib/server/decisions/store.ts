import "server-only";
import type pg from "pg";
import { decisionRecord, type DecisionRecord } from "@/lib/decisions";
import type { HumanLabels } from "@/lib/rewards";
import type { Trace } from "@/lib/trace/types";
import { pool } from "../db/client";
import { humanLabels } from "../queries/annotations";
import { loadTraceById } from "../queries/load-trace";

/**
 * The trace_decisions rows (lib/decisions/record.ts): written in the ingest
 * transaction beside the trace rows, rewritten whenever the stored metrics
 * are recomputed (labels change R_total and E1), back-filled at start-up for
 * traces stored before the table existed.
 */

const COLUMNS = [
  ["trace_id", "int4"], ["spawn_taken", "boolean"], ["agents_spawned", "int4"], ["delegate_taken", "boolean"],
  ["delegate_role_buckets", "text[]"], ["communicate_taken", "boolean"], ["messages", "int4"], ["messages_per_agent", "float8"],
  ["aggregate_taken", "boolean"], ["aggregate_fan_in", "int4"], ["stop_taken", "boolean"], ["policy_version", "text"],
  ["r_total", "float8"], ["agents_spawned_bucket", "text"], ["messages_per_agent_bucket", "text"], ["aggregate_fan_in_bucket", "text"],
] as const;

function values(traceDbId: number, r: DecisionRecord): unknown[] {
  const f = r.features;
  return [
    traceDbId, f.spawn_taken, f.agents_spawned, f.delegate_taken, r.buckets.delegate_roles, f.communicate_taken, f.messages, f.messages_per_agent,
    f.aggregate_taken, f.aggregate_fan_in, f.stop_taken, f.policy_version, r.r_total, r.buckets.agents_spawned, r.buckets.messages_per_agent, r.buckets.aggregate_fan_in,
  ];
}

/** Upserts the rows of many traces in one statement (arrays of each column, unnested; text[] columns as JSON). */
export async function writeDecisionRows(client: pg.PoolClient | pg.Pool, rows: readonly { id: number; record: DecisionRecord }[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query(decisionsUpsert(rows));
}

/** The upsert of many traces' rows as one statement whose parameters start at `$<first>` (a recompute runs it inside a larger one). */
export function decisionsUpsert(rows: readonly { id: number; record: DecisionRecord }[], first = 1): { text: string; values: unknown[] } {
  const columns = COLUMNS.map(() => [] as unknown[]);
  for (const { id, record } of rows) values(id, record).forEach((v, i) => columns[i]!.push(COLUMNS[i]![1] === "text[]" ? JSON.stringify(v) : v));
  const params = COLUMNS.map(([, type]) => (type === "text[]" ? "jsonb" : type));
  const select = COLUMNS.map(([name, type], i) => (type === "text[]" ? `ARRAY(SELECT jsonb_array_elements_text(u.c${i}))` : `u.c${i}`) + ` AS "${name}"`).join(", ");
  const names = COLUMNS.map(([name]) => `"${name}"`).join(", ");
  return {
    text: `INSERT INTO trace_decisions (${names})
     SELECT ${select} FROM unnest(${params.map((t, i) => `$${first + i}::${t}[]`).join(", ")}) AS u(${COLUMNS.map((_, i) => `c${i}`).join(", ")})
     ON CONFLICT (trace_id) DO UPDATE SET ${COLUMNS.slice(1).map(([name]) => `"${name}" = EXCLUDED."${name}"`).join(", ")}`,
    values: columns,
  };
}

/** Rewrites one trace's row (after its labels changed). */
export async function writeDecisionRow(traceDbId: number, trace: Trace, labels: HumanLabels): Promise<void> {
  await writeDecisionRows(pool(), [{ id: traceDbId, record: decisionRecord(trace, labels) }]);
}

/** Writes the rows of traces that have none (stored before the table existed); returns how many. */
export async function backfillDecisions(): Promise<number> {
  const missing = await pool().query<{ id: number }>("SELECT t.id FROM traces t WHERE NOT EXISTS (SELECT 1 FROM trace_decisions d WHERE d.trace_id = t.id) ORDER BY t.id");
  for (const { id } of missing.rows) {
    const trace = await loadTraceById(id);
    await writeDecisionRow(id, trace, (await humanLabels(trace.trace_id)).labels);
  }
  return missing.rowCount ?? 0;
}
