import type pg from "pg";
import type { TraceForStorage } from "@/lib/ingest/prepare";
import type { ExtendedLabels } from "@/lib/trace/extended-labels";
import type { Problem } from "@/lib/trace/validate";
import type { TraceDiagnostics } from "@/lib/hacking";
import { writeDiagnostics } from "../hacking/store";
import type { DecisionRecord } from "@/lib/decisions";
import { writeDecisionRows } from "../decisions/store";
import { restoreDecisiveErrors } from "./restore-decisive";
import { restoreLabels } from "./restore-labels";
import { copyLines, copyValue as v, jsonText } from "../db/copy";
import { writeCalls } from "../calls/store";
import { METRIC_CATALOGUE } from "@/lib/metrics/catalogue";

/**
 * Writes prepared traces inside the caller's transaction: trace rows with one
 * INSERT ... SELECT FROM unnest, events, contents and edges with COPY.
 * Per-row ORM inserts are two orders of magnitude slower for this.
 */

/** Column name -> SQL type of the trace row; values are sent as text[] and cast. */
const TRACE_COLUMNS = [
  ["trace_id", "text"],
  ["project_id", "int4"],
  ["task_id", "text"],
  ["system", "text"],
  ["topology", '"Topology"'],
  ["group_id", "text"],
  ["metadata", "jsonb"],
  ["rewards", "jsonb"],
  ["costs", "jsonb"],
  ["reported_metrics", "jsonb"],
  ["warnings", "jsonb"],
  ["event_count", "int4"],
  ["edge_count", "int4"],
  ["reported_e1", "int4"],
] as const;

export type ComputedColumns = Record<string, string | number | boolean | null>;

export interface StoredTrace {
  id: number;
  trace_id: string;
  events: number;
  edges: number;
  warnings: Problem[];
  /** with `skipExisting`: the trace_id was stored already and this trace was left out (nothing written for it) */
  skipped?: true;
}

export class ConflictError extends Error {
  constructor(readonly traceIds: string[]) {
    super(`trace_id already exists: ${traceIds.join(", ")}`);
  }
}

/** An upsert whose trace_id belongs to a stored trace the writer may not replace (its project is not the writer's to write). */
export class NotReplaceableError extends Error {
  constructor(readonly traceIds: string[]) {
    super(`trace_id belongs to a trace that may not be replaced: ${traceIds.join(", ")}`);
  }
}

export interface StoreOptions {
  upsert: boolean;
  /**
   * On upsert, whether a stored trace of `project` may be replaced (and so
   * moved into the new version's project). Asked under the trace_id's lock,
   * so that no concurrent write slips between the check and the replacement.
   * Default: only a trace of the same project as its new version.
   */
  mayReplace?: (project: string) => boolean;
  /** Without upsert: a trace whose trace_id is stored already is left as it is and reported skipped, instead of failing the whole write. */
  skipExisting?: boolean;
}

export interface StoreItem {
  prepared: TraceForStorage;
  /** human labels of an extended trace, restored with it */
  labels?: ExtendedLabels;
  warnings: Problem[];
  /** computed metric columns (SPEC.md section 4), column name -> value */
  computed: ComputedColumns;
  /** hacking diagnostics (lib/hacking), stored beside the trace row; absent only in benchmarks of the raw write path */
  diagnostics?: TraceDiagnostics;
  /** the trace_decisions row (lib/decisions), written beside the trace row */
  decisions?: DecisionRecord;
}

/**
 * Writes of one trace_id run one after the other (SPEC.md section 7:
 * concurrent `?upsert=1` each succeed, the last wins), across processes:
 * a transaction-scoped advisory lock per trace_id, taken in key order so
 * that two batches sharing ids cannot deadlock. Without it, two upserts
 * both see no row (or both delete it) and one fails on the unique key.
 */
async function lockTraceIds(client: pg.PoolClient, traceIds: readonly string[]): Promise<void> {
  await client.query(
    "SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended(id, 0) AS k FROM unnest($1::text[]) AS id ORDER BY 1) AS keys",
    [traceIds],
  );
}

export async function storeTraces(client: pg.PoolClient, all: readonly StoreItem[], opts: StoreOptions): Promise<StoredTrace[]> {
  if (all.length === 0) return [];
  await lockTraceIds(client, all.map((i) => i.prepared.trace.trace_id));
  const existing = await client.query<{ id: number; trace_id: string; project: string }>(
    "SELECT t.id, t.trace_id, p.name AS project FROM traces t JOIN projects p ON p.id = t.project_id WHERE t.trace_id = ANY($1::text[])",
    [all.map((i) => i.prepared.trace.trace_id)],
  );
  const skip = !opts.upsert && opts.skipExisting ? new Map(existing.rows.map((r) => [r.trace_id, r.id])) : new Map<string, number>();
  const skipped: StoredTrace[] = all.filter((i) => skip.has(i.prepared.trace.trace_id)).map((i) => ({ id: skip.get(i.prepared.trace.trace_id)!, trace_id: i.prepared.trace.trace_id, events: 0, edges: 0, warnings: [], skipped: true }));
  const items = skip.size > 0 ? all.filter((i) => !skip.has(i.prepared.trace.trace_id)) : all;
  if (items.length === 0) return skipped;
  const traceIds = items.map((i) => i.prepared.trace.trace_id);
  if (existing.rowCount && skip.size === 0) {
    const found = existing.rows.map((r) => r.trace_id);
    if (!opts.upsert) throw new ConflictError(found);
    const target = new Map(items.map((i) => [i.prepared.trace.trace_id, i.prepared.project]));
    const mayReplace = opts.mayReplace;
    const refused = existing.rows.filter((r) => (mayReplace ? !mayReplace(r.project) : r.project !== target.get(r.trace_id))).map((r) => r.trace_id);
    if (refused.length > 0) throw new NotReplaceableError(refused);
    await client.query("DELETE FROM traces WHERE trace_id = ANY($1::text[])", [found]);
  }
  const projectIds = await ensureProjects(client, [...new Set(items.map((i) => i.prepared.project))]);
  const ids = await insertTraceRows(client, items, projectIds);
  await writeDecisionRows(client, items.flatMap((i) => (i.decisions ? [{ id: ids.get(i.prepared.trace.trace_id)!, record: i.decisions }] : [])));

  await copyLines(client, "events", EVENT_COLUMNS, eventLines(items, ids));
  await copyLines(client, "event_content", CONTENT_COLUMNS, contentLines(items, ids));
  await copyLines(client, "edges", EDGE_COLUMNS, edgeLines(items, ids));
  await writeCalls(client, items, ids);
  await writeDiagnostics(client, items.flatMap((i) => (i.diagnostics ? [{ traceDbId: ids.get(i.prepared.trace.trace_id)!, diagnostics: i.diagnostics }] : [])));
  const dropped = opts.upsert ? await dropOrphanedLabels(client, traceIds) : new Map<string, Problem[]>();
  const labelled = items.flatMap((i) => (i.labels ? [{ traceKey: i.prepared.trace.trace_id, labels: i.labels }] : []));
  await restoreLabels(client, labelled);
  await restoreDecisiveErrors(client, labelled);
  return skipped.concat(items.map((item) => ({
    id: ids.get(item.prepared.trace.trace_id)!,
    trace_id: item.prepared.trace.trace_id,
    events: item.prepared.trace.events.length,
    edges: item.prepared.trace.edges.length,
    warnings: [...item.warnings, ...(dropped.get(item.prepared.trace.trace_id) ?? [])],
  })));
}

/**
 * On re-ingest (upsert) annotations and adjudications are kept (they are keyed
 * by trace_id and event id, not by row); those whose event is gone are removed
 * and reported as warnings of the trace.
 */
async function dropOrphanedLabels(client: pg.PoolClient, traceIds: string[]): Promise<Map<string, Problem[]>> {
  const orphan = (table: string) => `DELETE FROM ${table} a WHERE a.trace_key = ANY($1::text[]) AND a.event_id <> ''
    AND NOT EXISTS (SELECT 1 FROM events e JOIN traces t ON t.id = e.trace_id WHERE t.trace_id = a.trace_key AND e.event_id = a.event_id)
    RETURNING a.trace_key, a.event_id, a.family`;
  const [annotations, adjudications] = [await client.query<Orphan>(orphan("annotations"), [traceIds]), await client.query<Orphan>(orphan("adjudications"), [traceIds])];
  const decisiveOrphan = (table: string) => `DELETE FROM ${table} a WHERE a.trace_key = ANY($1::text[])
    AND NOT EXISTS (SELECT 1 FROM events e JOIN traces t ON t.id = e.trace_id WHERE t.trace_id = a.trace_key AND e.event_id = a.event_id)
    RETURNING a.trace_key, a.event_id, 'decisive error' AS family`;
  const decisive = [...(await client.query<Orphan>(decisiveOrphan("decisive_errors"), [traceIds])).rows, ...(await client.query<Orphan>(decisiveOrphan("decisive_error_adjudications"), [traceIds])).rows];
  const out = new Map<string, Problem[]>();
  const report = (rows: Orphan[], what: string) => {
    for (const r of rows) {
      const list = out.get(r.trace_key) ?? [];
      list.push({ path: "$.events", message: `removed ${what} of family ${r.family} on event "${r.event_id}", which the new version of the trace no longer has` });
      out.set(r.trace_key, list);
    }
  };
  report(annotations.rows, "an annotation");
  report(adjudications.rows, "an adjudicated value");
  for (const r of decisive) {
    const list = out.get(r.trace_key) ?? [];
    list.push({ path: "$.events", message: `removed a decisive-error label on event "${r.event_id}", which the new version of the trace no longer has` });
    out.set(r.trace_key, list);
  }
  return out;
}

interface Orphan {
  trace_key: string;
  event_id: string;
  family: string;
}

export async function ensureProjects(client: pg.PoolClient, names: string[]): Promise<Map<string, number>> {
  await client.query("INSERT INTO projects (name) SELECT unnest($1::text[]) ON CONFLICT (name) DO NOTHING", [names]);
  const rows = await client.query<{ id: number; name: string }>("SELECT id, name FROM projects WHERE name = ANY($1::text[])", [names]);
  return new Map(rows.rows.map((r) => [r.name, r.id]));
}

async function insertTraceRows(client: pg.PoolClient, items: readonly StoreItem[], projectIds: Map<string, number>): Promise<Map<string, number>> {
  const computedNames = Object.keys(items[0]!.computed);
  const columns = [...TRACE_COLUMNS.map(([name]) => name), ...computedNames];
  const types = [...TRACE_COLUMNS.map(([, type]) => type), ...computedNames.map(computedType)];
  const values: (string | null)[][] = columns.map(() => []);
  for (const { prepared, warnings, computed } of items) {
    const t = prepared.trace;
    const row: (string | number | boolean | null | undefined)[] = [
      t.trace_id, projectIds.get(prepared.project), t.task_id, t.system, t.topology, t.group_id,
      json(t.metadata), json(t.rewards), json(t.costs), json(t.metrics), json(warnings),
      t.events.length, t.edges.length, prepared.reportedE1,
      ...computedNames.map((name) => computed[name]),
    ];
    row.forEach((value, i) => values[i]!.push(value === undefined || value === null ? null : String(value).replaceAll("\0", "\ufffd")));
  }
  const select = columns.map((_, i) => `u.c${i}::${types[i]}`).join(", ");
  const unnest = columns.map((_, i) => `$${i + 1}::text[]`).join(", ");
  const sql = `INSERT INTO traces (${columns.map((c) => `"${c}"`).join(", ")})
    SELECT ${select} FROM unnest(${unnest}) AS u(${columns.map((_, i) => `c${i}`).join(", ")})
    RETURNING id, trace_id`;
  const inserted = await client.query<{ id: number; trace_id: string }>(sql, values);
  return new Map(inserted.rows.map((r) => [r.trace_id, r.id]));
}

/** SQL type of a computed metric column, by naming convention of the schema. */
export function computedType(name: string): string {
  if (name === "stop_reason") return '"StopReason"';
  if (name === "verdict") return '"Verdict"';
  if (name === "metrics_version") return "text";
  const metric = METRIC_CATALOGUE.find((m) => m.key === name);
  if (metric?.kind === "boolean") return "boolean";
  if (metric?.kind === "count" || ["e1", "tail_events", "agent_count", "error_count"].includes(name)) return "int4";
  return "float8";
}

export const EVENT_COLUMNS = [
  "trace_id", "seq", "pos", "event_id", "t", "t_end", "type", "agent", "role", "from_agent", "to_agent", "tool",
  "content_ref", "trusted", "tokens", "status", "decision", "reason", "rewards", "extra", "content_length",
] as const;

export const CONTENT_COLUMNS = ["trace_id", "seq", "content"] as const;
export const EDGE_COLUMNS = ["trace_id", "seq", "src", "dst", "type"] as const;

/** COPY lines of the events table (exported for the ingest benchmark's raw-COPY baseline). */
export function* eventLines(items: readonly StoreItem[], ids: Map<string, number>): Generator<string> {
  for (const { prepared } of items) {
    const traceId = ids.get(prepared.trace.trace_id)!;
    const events = prepared.trace.events;
    for (let seq = 0; seq < events.length; seq++) {
      const pos = prepared.order[seq]!;
      const e = events[pos]!;
      yield `${traceId}\t${seq}\t${pos}\t${v(e.id)}\t${e.t}\t${v(e.t_end)}\t${e.type}\t${v(e.agent)}\t${v(e.role)}\t${v(e.from)}\t${v(e.to)}\t${v(e.tool)}\t${v(e.content_ref)}\t${v(e.trusted)}\t${v(e.tokens)}\t${v(e.status)}\t${v(e.decision)}\t${v(e.reason)}\t${v(json(e.rewards))}\t${v(json(e.extra))}\t${v(e.content?.length)}\n`;
    }
  }
}

export function* contentLines(items: readonly StoreItem[], ids: Map<string, number>): Generator<string> {
  for (const { prepared } of items) {
    const traceId = ids.get(prepared.trace.trace_id)!;
    const events = prepared.trace.events;
    for (let seq = 0; seq < events.length; seq++) {
      const content = events[prepared.order[seq]!]!.content;
      if (content !== undefined) yield `${traceId}\t${seq}\t${v(content)}\n`;
    }
  }
}

export function* edgeLines(items: readonly StoreItem[], ids: Map<string, number>): Generator<string> {
  for (const { prepared } of items) {
    const traceId = ids.get(prepared.trace.trace_id)!;
    const ends = prepared.edgeEnds;
    for (let j = 0; j < prepared.trace.edges.length; j++) {
      yield `${traceId}\t${j}\t${ends[2 * j]}\t${ends[2 * j + 1]}\t${prepared.trace.edges[j]!.type}\n`;
    }
  }
}

const json = jsonText;
