import "server-only";
import { reader } from "@/lib/server/db/read";
import { eventExtraSchema, eventRewardsSchema } from "@/lib/trace/schema";
import type { Trace, TraceEvent } from "@/lib/trace/types";
import { stored } from "../db/stored";
import { TRACE_ROW_SQL, traceOf, type TraceRow } from "./graph-load";
import { findTraceRow } from "./trace-row";

/**
 * A stored trace back as the domain object the compute core takes: events in
 * their input order (ties in event order depend on it). Content is loaded for
 * message events only: message_redundancy keys on it; nothing else reads it.
 */
export async function loadTrace(traceId: string, opts: LoadOptions = {}): Promise<Trace> {
  const row = await findTraceRow(traceId);
  return loadTraceById(row.id, opts);
}

export interface LoadOptions {
  /** which events' content to load: messages' (compute, the default), every event's (export), or none */
  content?: "messages" | "all" | "none";
}

export async function loadTraceById(id: number, opts: LoadOptions = {}): Promise<Trace> {
  // Raw named statements (parsed and planned once per pooled connection), all at once: every
  // recompute and credit read loads a trace. One table per query, by primary key (a join with
  // events could get a poor plan right after a big ingest, with no statistics yet); a message's
  // content comes with its event row, looked up by event_content's primary key.
  const db = (await reader()).pool;
  const which = opts.content ?? "messages";
  const [traceRows, { rows: events }, { rows: edges }, allContent] = await Promise.all([
    db.query<TraceRow>({ name: "load.trace", text: TRACE_ROW_SQL, values: [id] }),
    which === "messages"
      ? db.query<EventRow & { content: string | null }>({ name: "load.events+messages", text: EVENTS_WITH_MESSAGES_SQL, values: [id] })
      : db.query<EventRow & { content?: undefined }>({ name: "load.events", text: EVENTS_SQL, values: [id] }),
    db.query<{ src: number; dst: number; type: EdgeType }>({ name: "load.edges", text: "SELECT src, dst, type::text AS type FROM edges WHERE trace_id = $1 ORDER BY seq", values: [id] }),
    which === "all" ? db.query<{ seq: number; content: string }>({ name: "load.content.all", text: "SELECT seq, content FROM event_content WHERE trace_id = $1", values: [id] }) : null,
  ]);
  const row = traceRows.rows[0];
  if (!row) throw new Error(`no trace with id ${id}`);
  const contentBySeq = new Map<number, string>(allContent?.rows.map((c) => [c.seq, c.content]));
  for (const e of events) if (e.content != null) contentBySeq.set(e.seq, e.content);
  const idBySeq = new Map(events.map((e) => [e.seq, e.event_id]));
  return traceOf(
    row,
    events.map((e) => eventOf(e, contentBySeq.get(e.seq))),
    edges.map((e) => ({ src: idBySeq.get(e.src)!, dst: idBySeq.get(e.dst)!, type: e.type })),
  );
}

/** A stored event row back as the domain event (fields in the order the API has always written them). */
function eventOf(e: EventRow, content: string | undefined): TraceEvent {
  const event: TraceEvent = { id: e.event_id, t: e.t, type: e.type, agent: e.agent };
  if (e.role !== null) event.role = e.role;
  if (e.from_agent !== null) event.from = e.from_agent;
  if (e.to_agent !== null) event.to = e.to_agent;
  if (e.tool !== null) event.tool = e.tool;
  if (e.content_ref !== null) event.content_ref = e.content_ref;
  if (e.trusted !== null) event.trusted = e.trusted;
  if (e.t_end !== null) event.t_end = e.t_end;
  if (e.tokens !== null) event.tokens = e.tokens;
  if (e.status !== null) event.status = e.status;
  if (e.decision !== null) event.decision = e.decision;
  if (e.reason !== null) event.reason = e.reason;
  if (e.rewards !== null) event.rewards = stored(eventRewardsSchema, e.rewards, () => `event ${JSON.stringify(e.event_id)}: its rewards`);
  if (content !== undefined) event.content = content;
  if (e.extra !== null) event.extra = stored(eventExtraSchema, e.extra, () => `event ${JSON.stringify(e.event_id)}: its extra properties`);
  return event;
}

/**
 * Many stored traces at once, as loadTraceById gives each with message
 * content only (what credit and metrics read): three queries for the lot
 * instead of three per trace (dataset snapshots read a page at a time).
 */
export async function loadTracesById(ids: readonly number[]): Promise<Map<number, Trace>> {
  const db = (await reader()).pool;
  const [traceRows, { rows: events }, { rows: edges }] = await Promise.all([
    db.query<TraceRow & { id: number }>({ name: "load-many.traces", text: TRACE_ROWS_SQL, values: [ids] }),
    db.query<EventRow & { trace_id: number; content: string | null }>({ name: "load-many.events", text: EVENTS_MANY_SQL, values: [ids] }),
    db.query<{ trace_id: number; src: number; dst: number; type: EdgeType }>({ name: "load-many.edges", text: "SELECT trace_id, src, dst, type::text AS type FROM edges WHERE trace_id = ANY($1::int[]) ORDER BY trace_id, seq", values: [ids] }),
  ]);
  const eventsOf = groupBy(events, (e) => e.trace_id);
  const edgesOf = groupBy(edges, (e) => e.trace_id);
  const out = new Map<number, Trace>();
  for (const row of traceRows.rows) {
    const own = eventsOf.get(row.id) ?? [];
    const idBySeq = new Map(own.map((e) => [e.seq, e.event_id]));
    out.set(row.id, traceOf(row, own.map((e) => eventOf(e, e.content ?? undefined)), (edgesOf.get(row.id) ?? []).map((e) => ({ src: idBySeq.get(e.src)!, dst: idBySeq.get(e.dst)!, type: e.type }))));
  }
  return out;
}

const TRACE_ROWS_SQL = `${TRACE_ROW_SQL.replace("WHERE t.id = $1", "WHERE t.id = ANY($1::int[])").replace("SELECT t.trace_id", "SELECT t.id, t.trace_id")}`;

function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

const EVENT_COLUMNS = "seq, event_id, t, t_end, type::text AS type, agent, role, from_agent, to_agent, tool, content_ref, trusted, tokens, status, decision, reason, rewards, extra";
const EVENTS_SQL = `SELECT ${EVENT_COLUMNS} FROM events WHERE trace_id = $1 ORDER BY pos`;
// named statements (parsed once per pooled connection): a snapshot reads a page of traces with them hundreds of times
const EVENTS_MANY_SQL = `SELECT e.trace_id, ${EVENT_COLUMNS},
    CASE WHEN e.type = 'message' THEN (SELECT c.content FROM event_content c WHERE c.trace_id = e.trace_id AND c.seq = e.seq) END AS content
  FROM events e WHERE e.trace_id = ANY($1::int[]) ORDER BY e.trace_id, e.pos`;
/** Events with their content for messages only (message_redundancy keys on it; nothing else the compute core reads does). */
const EVENTS_WITH_MESSAGES_SQL = `SELECT ${EVENT_COLUMNS},
    CASE WHEN e.type = 'message' THEN (SELECT c.content FROM event_content c WHERE c.trace_id = e.trace_id AND c.seq = e.seq) END AS content
  FROM events e WHERE e.trace_id = $1 ORDER BY e.pos`;

interface EventRow {
  seq: number;
  event_id: string;
  t: number;
  t_end: number | null;
  type: TraceEvent["type"];
  agent: string;
  role: string | null;
  from_agent: string | null;
  to_agent: string | null;
  tool: string | null;
  content_ref: string | null;
  trusted: boolean | null;
  tokens: number | null;
  status: string | null;
  decision: string | null;
  reason: string | null;
  rewards: unknown;
  extra: unknown;
}

type EdgeType = Trace["edges"][number]["type"];

/** The other traces of a group (for grpo / gigpo). */
export async function loadGroup(groupId: string): Promise<Trace[]> {
  const rows = await (await reader()).prisma.trace.findMany({ where: { groupId }, select: { id: true }, orderBy: { id: "asc" } });
  return Promise.all(rows.map((r) => loadTraceById(r.id)));
}
