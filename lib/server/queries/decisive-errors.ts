import "server-only";
import type { DecisiveErrorInput, DecisiveErrorsResponse, ApiDecisiveError } from "@/lib/api/decisive-errors";
import { SPEC_VERSION } from "@/lib/metrics";
import { decisiveEventOf } from "@/lib/trace/decisive-errors";
import type { Actor } from "../auth/access";
import { pool } from "../db/client";
import { ApiError } from "../errors";

/**
 * Decisive-error labels (SPEC.md section 5): one current value per trace and
 * annotator, every change kept in decisive_error_revisions, and an admin's
 * adjudication that wins. They enter no metric or credit: section 10 scores
 * failure attribution against them.
 */

interface LabelRow {
  event_id: string;
  agent: string;
  reason: string | null;
  annotator: string;
  imported: boolean;
  updated_at: Date;
}

const iso = (d: Date) => d.toISOString();

export async function decisiveErrorsOf(traceKey: string): Promise<DecisiveErrorsResponse> {
  const [labels, adjudication] = await Promise.all([
    pool().query<LabelRow>({
      name: "decisive.labels",
      text: `SELECT d.event_id, d.agent, d.reason, u.name AS annotator, u.imported, d.updated_at
             FROM decisive_errors d JOIN users u ON u.id = d.annotator_id WHERE d.trace_key = $1 ORDER BY d.created_at, d.id`,
      values: [traceKey],
    }),
    pool().query<Omit<LabelRow, "annotator" | "imported"> & { adjudicator: string | null }>({
      name: "decisive.adjudication",
      text: `SELECT a.event_id, a.agent, a.reason, u.name AS adjudicator, a.updated_at
             FROM decisive_error_adjudications a LEFT JOIN users u ON u.id = a.adjudicator_id WHERE a.trace_key = $1`,
      values: [traceKey],
    }),
  ]);
  const adj = adjudication.rows[0] ?? null;
  const list: ApiDecisiveError[] = labels.rows.map((r) => ({ ...r, updated_at: iso(r.updated_at) }));
  const decisive = decisiveEventOf(list, adj);
  return {
    version: SPEC_VERSION,
    trace_id: traceKey,
    decisive_event: decisive,
    decisive_agent: adj ? adj.agent : (list.find((l) => l.event_id === decisive)?.agent ?? null),
    labels: list,
    adjudication: adj && { ...adj, updated_at: iso(adj.updated_at) },
  };
}

/** The event's agent, or a 400 at `$.event_id` when the trace has no such event. */
async function eventAgent(traceDbId: number, eventId: string): Promise<string> {
  const { rows } = await pool().query<{ agent: string }>({ name: "decisive.event-agent", text: "SELECT agent FROM events WHERE trace_id = $1 AND event_id = $2", values: [traceDbId, eventId] });
  if (!rows[0]) throw new ApiError(400, "invalid_input", `no event "${eventId}" in this trace`, [{ path: "$.event_id", message: "no such event in the trace" }]);
  return rows[0].agent;
}

/** Sets the caller's decisive error of a trace (replacing their earlier one, kept as history). */
export async function saveDecisiveError(trace: { id: number; traceId: string }, actor: Actor, input: DecisiveErrorInput): Promise<ApiDecisiveError> {
  const agent = input.agent ?? (await eventAgent(trace.id, input.event_id));
  if (input.agent !== undefined) await eventAgent(trace.id, input.event_id);
  const { rows } = await pool().query<LabelRow>({
    name: "decisive.save",
    text: `WITH d AS (
             INSERT INTO decisive_errors (trace_key, event_id, agent, reason, annotator_id) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (trace_key, annotator_id) DO UPDATE SET event_id = EXCLUDED.event_id, agent = EXCLUDED.agent, reason = EXCLUDED.reason, updated_at = now()
             RETURNING id, event_id, agent, reason, updated_at),
           r AS (INSERT INTO decisive_error_revisions (decisive_error_id, event_id, agent, reason, created_at) SELECT id, event_id, agent, reason, updated_at FROM d)
           SELECT d.event_id, d.agent, d.reason, u.name AS annotator, u.imported, d.updated_at FROM d, users u WHERE u.id = $5`,
    values: [trace.traceId, input.event_id, agent, input.reason ?? null, actor.userId],
  });
  const row = rows[0]!;
  return { ...row, updated_at: iso(row.updated_at) };
}

/** Removes the caller's own decisive error; false when they had none. */
export async function deleteOwnDecisiveError(traceKey: string, actor: Actor): Promise<boolean> {
  const { rowCount } = await pool().query({ name: "decisive.delete", text: "DELETE FROM decisive_errors WHERE trace_key = $1 AND annotator_id = $2", values: [traceKey, actor.userId] });
  return (rowCount ?? 0) > 0;
}

/** A project admin's final decisive error of a trace (SPEC.md section 5). */
export async function adjudicateDecisiveError(trace: { id: number; traceId: string }, actor: Actor, input: DecisiveErrorInput) {
  const agent = input.agent ?? (await eventAgent(trace.id, input.event_id));
  if (input.agent !== undefined) await eventAgent(trace.id, input.event_id);
  await pool().query({
    name: "decisive.adjudicate",
    text: `INSERT INTO decisive_error_adjudications (trace_key, event_id, agent, reason, adjudicator_id) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (trace_key) DO UPDATE SET event_id = EXCLUDED.event_id, agent = EXCLUDED.agent, reason = EXCLUDED.reason, adjudicator_id = EXCLUDED.adjudicator_id, updated_at = now()`,
    values: [trace.traceId, input.event_id, agent, input.reason ?? null, actor.userId],
  });
  return decisiveErrorsOf(trace.traceId);
}

/**
 * The decisive event and agent of every trace that has one, as SQL over
 * `trace_key`: the adjudicated one, else the event most annotators name
 * (ties: the one named first), with the agent its first namer gave. The
 * same rule as decisiveEventOf in lib/trace/decisive-errors.ts.
 */
export const DECISIVE_SQL = `
  SELECT trace_key, event_id, agent FROM decisive_error_adjudications
  UNION ALL
  SELECT v.trace_key, v.event_id, v.agent FROM (
    SELECT trace_key, event_id, (array_agg(agent ORDER BY created_at, id))[1] AS agent,
           row_number() OVER (PARTITION BY trace_key ORDER BY count(*) DESC, min(created_at), min(id)) AS k
    FROM decisive_errors GROUP BY trace_key, event_id) v
  WHERE v.k = 1 AND NOT EXISTS (SELECT 1 FROM decisive_error_adjudications a WHERE a.trace_key = v.trace_key)`;

/** The decisive event of each trace (adjudicated, else most named), for export rows; traces without one are absent. */
export async function decisiveEventsOf(traceKeys: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await pool().query<{ trace_key: string; event_id: string }>({
    name: "decisive.events",
    text: `SELECT d.trace_key, d.event_id FROM (${DECISIVE_SQL}) d WHERE d.trace_key = ANY($1::text[])`,
    values: [traceKeys],
  });
  return new Map(rows.map((r) => [r.trace_key, r.event_id]));
}
