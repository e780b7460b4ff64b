import "server-only";
import { reader } from "@/lib/server/db/read";
import type { Trace, TraceEvent } from "@/lib/trace/types";

/**
 * Loads a stored trace for the graph view, like loadTraceById but with
 * single-table queries only (each a plain scan of one trace's rows) and
 * rows as arrays through pg directly: right after a big COPY, before
 * autovacuum has analysed the tables, the planner's row estimates are far
 * too low and a join of events with event_content can be planned as a
 * nested loop over sequential scans, which takes hours on 100,000 events.
 *
 * Content is not loaded: the graph's columns and metrics roles do not
 * depend on it. Credit does (message_redundancy keys on message content,
 * and communication_efficiency on that), so `withMessageContent` adds it
 * when credit is first asked for.
 */
export interface GraphTrace {
  trace: Trace;
  /** The stored `seq` (event-order position) of each event, in `trace.events` order. */
  seqs: Int32Array;
}

export async function loadGraphTrace(id: number): Promise<GraphTrace> {
  const db = (await reader()).pool;
  const [rows, events, edges] = await Promise.all([
    db.query<TraceRow>({ name: "load.trace", text: TRACE_ROW_SQL, values: [id] }),
    db.query<unknown[]>({
      text: `SELECT seq, event_id, t, t_end, type::text, agent, role, from_agent, to_agent, tool, content_ref, trusted, tokens, status, decision::text, reason::text, rewards
             FROM events WHERE trace_id = $1 ORDER BY pos`,
      values: [id],
      rowMode: "array",
    }),
    db.query<[number, number, string]>({ text: "SELECT src, dst, type::text FROM edges WHERE trace_id = $1 ORDER BY seq", values: [id], rowMode: "array" }),
  ]);
  const row = rows.rows[0];
  if (!row) throw new Error(`trace row ${id} vanished while loading`);
  const idBySeq = new Map<number, string>();
  const seqs = new Int32Array(events.rows.length);
  const list = events.rows.map((r, i) => {
    const [seq, eventId, t, tEnd, type, agent, role, from, to, tool, contentRef, trusted, tokens, status, decision, reason, rewards] = r as EventRow;
    idBySeq.set(seq, eventId);
    seqs[i] = seq;
    const event: TraceEvent = { id: eventId, t, type: type as TraceEvent["type"], agent };
    if (role !== null) event.role = role;
    if (from !== null) event.from = from;
    if (to !== null) event.to = to;
    if (tool !== null) event.tool = tool;
    if (contentRef !== null) event.content_ref = contentRef;
    if (trusted !== null) event.trusted = trusted;
    if (tEnd !== null) event.t_end = tEnd;
    if (tokens !== null) event.tokens = tokens;
    if (status !== null) event.status = status;
    if (decision !== null) event.decision = decision;
    if (reason !== null) event.reason = reason;
    if (rewards !== null) event.rewards = rewards;
    return event;
  });
  const trace = traceOf(row, list, edges.rows.map(([src, dst, type]) => ({ src: idBySeq.get(src)!, dst: idBySeq.get(dst)!, type: type as Trace["edges"][number]["type"] })));
  return { trace, seqs };
}

/** The trace with the content of its message events (one scan of the trace's content rows). */
export async function withMessageContent(id: number, loaded: GraphTrace): Promise<Trace> {
  const contents = await (await reader()).pool.query<[number, string]>({ text: "SELECT seq, content FROM event_content WHERE trace_id = $1", values: [id], rowMode: "array" });
  const bySeq = new Map(contents.rows);
  const events = loaded.trace.events.map((e, i) => {
    const content = e.type === "message" ? bySeq.get(loaded.seqs[i]!) : undefined;
    return content === undefined ? e : { ...e, content };
  });
  return { ...loaded.trace, events };
}

/** A trace's own row with its project's name (`$1` its row id): shared with loadTraceById. */
export const TRACE_ROW_SQL = `SELECT t.trace_id, t.task_id, t.system, t.topology::text AS topology, t.group_id, p.name AS project, t.metadata, t.rewards, t.costs, t.reported_metrics
  FROM traces t JOIN projects p ON p.id = t.project_id WHERE t.id = $1`;

/** The trace from its TRACE_ROW_SQL row, its events and edges (fields in the order the API has always written them). */
export function traceOf(row: TraceRow, events: TraceEvent[], edges: Trace["edges"]): Trace {
  return {
    trace_id: row.trace_id,
    task_id: row.task_id,
    ...(row.system !== null && { system: row.system }),
    ...(row.topology !== null && { topology: row.topology as Trace["topology"] }),
    ...(row.group_id !== null && { group_id: row.group_id }),
    project: row.project,
    ...(row.metadata !== null && { metadata: row.metadata }),
    events,
    edges,
    rewards: row.rewards,
    costs: row.costs,
    ...(row.reported_metrics !== null && { metrics: row.reported_metrics }),
  };
}

export interface TraceRow {
  trace_id: string;
  task_id: string;
  system: string | null;
  topology: string | null;
  group_id: string | null;
  project: string;
  metadata: Record<string, unknown> | null;
  rewards: Record<string, number>;
  costs: Trace["costs"];
  reported_metrics: Record<string, number> | null;
}

type EventRow = [
  seq: number,
  eventId: string,
  t: number,
  tEnd: number | null,
  type: string,
  agent: string,
  role: string | null,
  from: string | null,
  to: string | null,
  tool: string | null,
  contentRef: string | null,
  trusted: boolean | null,
  tokens: number | null,
  status: string | null,
  decision: string | null,
  reason: string | null,
  rewards: TraceEvent["rewards"] | null,
];
