import "server-only";
import { taskDefinition } from "@/lib/annotate/task-definition";
import { graderFieldValues, storedGraderFields } from "@/lib/annotate/grader-fields";
import { CONTENT_MAX, messageText, READ_MAX, TIMELINE_HEAD, TIMELINE_TAIL, type EventContext, type TraceContext, type UnitEvent } from "@/lib/annotate/unit";
import { eventSummary } from "@/lib/trace/summary";
import { modelCallSchema } from "@/lib/trace/calls";
import { pool, prisma } from "../db/client";
import { stored } from "../db/stored";
import { ApiError } from "../errors";

/**
 * The unit context an annotator needs (lib/annotate/unit.ts), read with a
 * few indexed queries so that it costs the same on a 100,000-event trace as
 * on a small one: never the whole trace.
 */
/** The JSON columns of the call that produced an event (model_calls). */
const callColumns = modelCallSchema.pick({ input: true, output: true, events: true });

interface EventRow {
  seq: number;
  event_id: string;
  t: number;
  type: string;
  agent: string;
  role: string | null;
  from_agent: string | null;
  to_agent: string | null;
  tool: string | null;
  decision: string | null;
  reason: string | null;
  status: string | null;
  tokens: number | null;
  content: string | null;
  content_length: number | null;
}

const EVENT_COLUMNS = `e.seq, e.event_id, e.t, e.type::text AS type, e.agent, e.role, e.from_agent, e.to_agent, e.tool, e.decision::text AS decision,
  e.reason::text AS reason, e.status, e.tokens, left(c.content, ${CONTENT_MAX}) AS content, e.content_length`;
const FROM_EVENTS = "FROM events e LEFT JOIN event_content c ON c.trace_id = e.trace_id AND c.seq = e.seq";

function toUnitEvent(r: EventRow): UnitEvent {
  return {
    id: r.event_id, seq: r.seq, t: r.t, type: r.type, agent: r.agent, role: r.role, from: r.from_agent, to: r.to_agent,
    tool: r.tool, decision: r.decision, status: r.status, tokens: r.tokens, content: r.content, content_length: r.content_length ?? r.content?.length ?? null,
  };
}

export async function eventContext(trace: { id: number; traceId: string }, eventId: string): Promise<EventContext> {
  const { rows } = await pool().query<EventRow>(`SELECT ${EVENT_COLUMNS} ${FROM_EVENTS} WHERE e.trace_id = $1 AND e.event_id = $2`, [trace.id, eventId]);
  const row = rows[0];
  if (!row) throw new ApiError(404, "not_found", `the trace has no event "${eventId}"`, [{ path: "event", message: `no event "${eventId}"` }]);
  const [read, count, results, call] = await Promise.all([
    pool().query<EventRow & { edge: string }>(
      `SELECT ${EVENT_COLUMNS}, d.type::text AS edge FROM edges d JOIN events e ON e.trace_id = d.trace_id AND e.seq = d.src
       LEFT JOIN event_content c ON c.trace_id = e.trace_id AND c.seq = e.seq
       WHERE d.trace_id = $1 AND d.dst = $2 AND d.type <> 'temporal' ORDER BY e.seq DESC LIMIT ${READ_MAX}`,
      [trace.id, row.seq],
    ),
    pool().query<{ n: number }>("SELECT count(*)::int AS n FROM edges WHERE trace_id = $1 AND dst = $2 AND type <> 'temporal'", [trace.id, row.seq]),
    row.type === "tool_call"
      ? pool().query<EventRow>(
          `SELECT ${EVENT_COLUMNS} FROM edges d JOIN events e ON e.trace_id = d.trace_id AND e.seq = d.dst
           LEFT JOIN event_content c ON c.trace_id = e.trace_id AND c.seq = e.seq
           WHERE d.trace_id = $1 AND d.src = $2 AND d.type <> 'temporal' AND e.type = 'tool_result' ORDER BY e.seq`,
          [trace.id, row.seq],
        )
      : Promise.resolve({ rows: [] as EventRow[] }),
    pool().query<{ call_id: string; agent: string; model: string | null; input: unknown; output: unknown; event_ids: unknown }>(
      "SELECT call_id, agent, model, input, output, event_ids FROM model_calls WHERE trace_id = $1 AND event_ids ? $2 LIMIT 1",
      [trace.id, eventId],
    ),
  ]);
  const r = call.rows[0];
  const c = r && { ...r, ...stored(callColumns, { input: r.input, output: r.output, events: r.event_ids }, () => `model call ${JSON.stringify(r.call_id)}`) };
  return {
    unit: "event",
    trace_id: trace.traceId,
    event: toUnitEvent(row),
    call: c ? { id: c.call_id, agent: c.agent, model: c.model, input: c.input.map(messageText), output: messageText(c.output), events: c.events } : null,
    read: read.rows.reverse().map((r) => ({ ...toUnitEvent(r), edge: r.edge })),
    read_more: Math.max(0, count.rows[0]!.n - read.rows.length),
    results: results.rows.map(toUnitEvent),
  };
}

export async function traceContext(trace: { id: number; traceId: string; taskId: string; system: string | null; metadata: unknown; eventCount: number; projectId: number }): Promise<TraceContext> {
  const n = trace.eventCount;
  const [terminal, agents, timeline, project] = await Promise.all([
    // the final answer: an event an importer marked so (tau-bench's agent's last turn, not the user simulator's ###STOP###),
    // else the terminal event: the last aggregate in event order, else the last event
    pool().query<EventRow>(
      `SELECT ${EVENT_COLUMNS} ${FROM_EVENTS} WHERE e.trace_id = $1 AND (e.type = 'aggregate' OR e.seq = $2 OR e.extra @> '{"final_answer": true}')
       ORDER BY coalesce(e.extra @> '{"final_answer": true}', false) DESC, (e.type = 'aggregate') DESC, e.seq DESC LIMIT 1`,
      [trace.id, n - 1],
    ),
    pool().query<{ agent: string; events: number; first_seq: number; last_seq: number }>(
      "SELECT agent, count(*)::int AS events, min(seq) AS first_seq, max(seq) AS last_seq FROM events WHERE trace_id = $1 GROUP BY agent ORDER BY min(seq) LIMIT 50",
      [trace.id],
    ),
    pool().query<EventRow>(
      `SELECT ${EVENT_COLUMNS} ${FROM_EVENTS} WHERE e.trace_id = $1 AND (e.seq < $2 OR e.seq >= $3) ORDER BY e.seq`,
      [trace.id, TIMELINE_HEAD, Math.max(TIMELINE_HEAD, n - TIMELINE_TAIL)],
    ),
    prisma().project.findUnique({ where: { id: trace.projectId }, select: { graderFields: true } }),
  ]);
  const definition = taskDefinition(trace.metadata);
  const first = timeline.rows[0];
  return {
    unit: "trace",
    trace_id: trace.traceId,
    task_id: trace.taskId,
    system: trace.system,
    events: n,
    task: definition.instruction?.text ?? first?.content ?? null,
    task_source: definition.instruction?.source ?? (first?.content ? `content of ${first.event_id}` : null),
    reference: definition.reference,
    policy: definition.policy,
    fields: graderFieldValues(trace.metadata, storedGraderFields(project?.graderFields)),
    final_answer: terminal.rows[0] ? toUnitEvent(terminal.rows[0]) : null,
    agents: agents.rows,
    timeline: timeline.rows.map((r) => ({
      seq: r.seq, id: r.event_id, agent: r.agent, type: r.type,
      summary: eventSummary({ type: r.type, decision: r.decision, reason: r.reason, from: r.from_agent, to: r.to_agent, tool: r.tool, status: r.status }),
    })),
    timeline_gap: Math.max(0, n - timeline.rows.length),
  };
}
