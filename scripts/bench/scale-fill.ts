import type pg from "pg";
import { syntheticTrace } from "@/lib/demo/synthetic";
import { deriveSeed } from "@/lib/util/random";
import type { TraceRecord } from "@/lib/ingest/parse";
import { ingestRecords } from "@/lib/server/ingest/ingest";
import type { Trace } from "@/lib/trace/types";
import { params, jsonRequest } from "@/scripts/lib/test-http";
import { POST as annotate } from "@/app/api/traces/[id]/annotations/route";
import { fmt } from "./db";

/**
 * The fill of bench:scale. Template traces come from Baton's synthetic
 * generator (lib/demo/synthetic.ts) with 10-90 events each (mean 50), 20
 * systems, groups of 4 rollouts per task, 5 checkpoints, and go through the
 * real ingest path (validation, metrics, decision features, diagnostics,
 * content, edges); every 5th one gets labels through the label route (a
 * trace-level task_success and two event-level step_quality labels). The
 * database then grows by copying whole stored traces with SQL (INSERT ...
 * SELECT over every table keyed by the trace: traces, events, event_content,
 * edges, model_calls, trace_decisions, trace_diagnostics, annotations and
 * their revisions) under new trace ids: the copies are rows exactly as
 * ingest stored them, without paying validation and metrics again for each.
 */

/** Template i: a synthetic run (10-90 events) with the list's and analytics' fields set. */
export function templateTrace(i: number, prefix = "scale"): Trace {
  const group = Math.floor(i / 4);
  const events = 10 + ((i * 37) % 81);
  const trace = syntheticTrace({ events, seed: deriveSeed(0x5ca1e, i), traceId: `${prefix}-${i}`, taskId: `task-${group % 5000}`, groupId: `${prefix}-group-${group}` });
  return { ...trace, system: `sys-${i % 20}`, metadata: { ...(trace.metadata as object), policy_version: `ckpt-${group % 5}` } };
}

/** Ingests templates [from, to) through Baton's ingest path, in requests of `batch` traces; returns the events stored. */
export async function ingestTemplates(from: number, to: number, prefix = "scale", batch = 500): Promise<number> {
  let events = 0;
  for (let first = from; first < to; first += batch) {
    const records: TraceRecord[] = [];
    for (let i = first; i < Math.min(to, first + batch); i++) {
      const value = templateTrace(i, prefix);
      events += value.events.length;
      records.push({ base: `$[${i - first}]`, value });
    }
    await ingestRecords(records, { upsert: false });
  }
  return events;
}

/** Labels on every 5th template, written through POST /api/traces/{id}/annotations (open local mode: the local user). */
export async function labelTemplates(from: number, to: number, prefix = "scale"): Promise<number> {
  let written = 0;
  for (let i = from; i < to; i += 5) {
    const trace = templateTrace(i, prefix);
    const id = trace.trace_id;
    const bodies = [
      { family: "task_success", value: i % 2 === 0 ? 1 : 0 },
      { event_id: trace.events[1]!.id, family: "step_quality", value: 0.5 },
      { event_id: trace.events.at(-2)!.id, family: "step_quality", value: -0.5, comment: "went off topic" },
    ];
    for (const body of bodies) {
      const response = await annotate(jsonRequest(`/api/traces/${encodeURIComponent(id)}/annotations`, body), params({ id }));
      if (response.status !== 201) throw new Error(`label on ${id}: ${response.status} ${await response.text()}`);
      written++;
    }
  }
  return written;
}

/** The tables whose rows belong to one trace by `trace_id` (the traces row id), with their columns. */
const TRACE_TABLES = ["events", "event_content", "edges", "model_calls", "trace_decisions", "trace_diagnostics"] as const;

async function columnsOf(client: pg.Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ c: string }>(
    "SELECT column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position",
    [table],
  );
  return rows.map((r) => `"${r.c}"`);
}

/**
 * Copies the template traces (trace_id LIKE `${prefix}-%`, no copies) `copies`
 * times, copy numbers [firstCopy, firstCopy + copies), as new traces
 * `${trace_id}.c${n}` with every row that belongs to them; in chunks of
 * `chunk` copies per statement so that no statement holds the whole fill.
 */
export async function copyTemplates(client: pg.Client, firstCopy: number, copies: number, opts: { prefix?: string; chunk?: number; onChunk?: (done: number) => void } = {}): Promise<void> {
  const prefix = opts.prefix ?? "scale";
  const chunk = opts.chunk ?? 10;
  const traceCols = (await columnsOf(client, "traces")).filter((c) => !['"id"', '"trace_id"', '"created_at"', '"updated_at"'].includes(c));
  const tableCols = new Map<string, string[]>();
  for (const t of TRACE_TABLES) tableCols.set(t, (await columnsOf(client, t)).filter((c) => c !== '"trace_id"'));
  const annotationCols = (await columnsOf(client, "annotations")).filter((c) => !['"id"', '"trace_key"'].includes(c));
  const revisionCols = (await columnsOf(client, "annotation_revisions")).filter((c) => !['"id"', '"annotation_id"'].includes(c));
  await templatesTable(client, prefix);
  for (let from = firstCopy; from < firstCopy + copies; from += chunk) {
    const to = Math.min(firstCopy + copies, from + chunk);
    await client.query("BEGIN");
    await client.query(`CREATE TEMP TABLE scale_map ON COMMIT DROP AS
      SELECT s.id AS tid, s.trace_id || '.c' || n AS key, nextval('traces_id_seq')::int AS nid
      FROM scale_templates s CROSS JOIN generate_series($1::int, $2::int - 1) n ORDER BY n, s.id`, [from, to]);
    await client.query(`INSERT INTO traces (id, trace_id, ${traceCols.join(", ")})
      SELECT m.nid, m.key, ${traceCols.map((c) => `t.${c}`).join(", ")} FROM scale_map m JOIN traces t ON t.id = m.tid ORDER BY m.nid`);
    for (const [table, cols] of tableCols) {
      await client.query(`INSERT INTO ${table} (trace_id, ${cols.join(", ")})
        SELECT m.nid, ${cols.map((c) => `x.${c}`).join(", ")} FROM scale_map m JOIN ${table} x ON x.trace_id = m.tid ORDER BY m.nid`);
    }
    await client.query(`INSERT INTO annotations (trace_key, ${annotationCols.join(", ")})
      SELECT m.key, ${annotationCols.map((c) => `a.${c}`).join(", ")} FROM scale_map m JOIN scale_templates s ON s.id = m.tid JOIN annotations a ON a.trace_key = s.trace_id`);
    await client.query(`INSERT INTO annotation_revisions (annotation_id, ${revisionCols.join(", ")})
      SELECT c.id, ${revisionCols.map((col) => `r.${col}`).join(", ")}
      FROM scale_map m JOIN scale_templates s ON s.id = m.tid
      JOIN annotations a ON a.trace_key = s.trace_id
      JOIN annotations c ON c.trace_key = m.key AND c.event_id = a.event_id AND c.family = a.family AND c.annotator_id = a.annotator_id
      JOIN annotation_revisions r ON r.annotation_id = a.id`);
    await client.query("COMMIT");
    opts.onChunk?.(to - firstCopy);
  }
}

/** The session's temporary table of the template traces (row id, trace_id). */
export async function templatesTable(client: pg.Client, prefix = "scale"): Promise<void> {
  await client.query(`CREATE TEMP TABLE IF NOT EXISTS scale_templates AS SELECT id, trace_id FROM traces WHERE trace_id LIKE $1 AND trace_id NOT LIKE '%.c%'`, [`${prefix}-%`]);
}

/** The secondary indexes of the big per-event tables (not primary keys or unique ones): dropped for a bulk fill, rebuilt after. */
export async function secondaryIndexes(client: pg.Client): Promise<{ name: string; def: string }[]> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
     WHERE schemaname = 'public' AND tablename IN ('events', 'event_content', 'edges', 'traces', 'annotations', 'annotation_revisions')
       AND indexname NOT LIKE '%_pkey' AND indexdef NOT LIKE 'CREATE UNIQUE%'`,
  );
  return rows;
}

export async function rebuild(client: pg.Client, indexes: { name: string; def: string }[]): Promise<number> {
  const started = performance.now();
  await client.query("SET maintenance_work_mem = '1GB'");
  for (const { def } of indexes) await client.query(def);
  // what autovacuum does to an insert-only table soon after a load: statistics, and the visibility map that index-only scans (the list's count) rely on
  await client.query("VACUUM (ANALYZE)");
  return (performance.now() - started) / 1000;
}

export const log = (s: string) => console.log(`  [${new Date().toISOString().slice(11, 19)}] ${s}`);
export { fmt };
