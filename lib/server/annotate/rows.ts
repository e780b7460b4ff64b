import "server-only";
import type { LabelRowsPage } from "@/lib/annotate/rows";
import { eventSummary } from "@/lib/trace/summary";
import { datasetStep } from "@/lib/trace/steps";
import type { EventType } from "@/lib/trace/types";
import { pool } from "../db/client";

interface RowRecord {
  seq: number;
  event_id: string;
  type: EventType;
  agent: string;
  from_agent: string | null;
  to_agent: string | null;
  tool: string | null;
  decision: string | null;
  reason: string | null;
  status: string | null;
  trusted: boolean | null;
  step: unknown;
}

/**
 * One page of the label view's rows (lib/annotate/rows.ts): an index range
 * scan of the events' primary key and two indexed probes for the anchors,
 * the same cost on a 100,000-event trace as on a small one. The anchors
 * follow lib/graph/causal.ts (terminal: last aggregate, else last event;
 * stop: last stop decision), over the stored event order (seq).
 */
export async function labelRows(trace: { id: number; eventCount: number }, from: number, limit: number): Promise<LabelRowsPage> {
  const [page, anchors] = await Promise.all([
    pool().query<RowRecord>(
      `SELECT seq, event_id, type::text AS type, agent, from_agent, to_agent, tool, decision::text AS decision, reason::text AS reason, status, trusted, extra->'step' AS step
       FROM events WHERE trace_id = $1 AND seq >= $2 AND seq < $3 ORDER BY seq`,
      [trace.id, from, from + limit],
    ),
    pool().query<{ aggregate: number | null; stop: number | null }>(
      `SELECT (SELECT max(seq) FROM events WHERE trace_id = $1 AND type = 'aggregate') AS aggregate,
              (SELECT max(seq) FROM events WHERE trace_id = $1 AND type = 'orchestrator_decision' AND decision = 'stop') AS stop`,
      [trace.id],
    ),
  ]);
  const total = trace.eventCount;
  const { aggregate, stop } = anchors.rows[0]!;
  const end = Math.min(total, from + limit);
  return {
    total,
    terminal: aggregate ?? total - 1,
    stop,
    from: Math.min(from, total),
    next: end < total ? end : null,
    rows: page.rows.map((r) => ({
      id: r.event_id,
      type: r.type,
      agent: r.agent,
      summary: eventSummary({ type: r.type, from: r.from_agent, to: r.to_agent, tool: r.tool, decision: r.decision, reason: r.reason, status: r.status, trusted: r.trusted }),
      step: datasetStep({ step: r.step }),
    })),
  };
}
