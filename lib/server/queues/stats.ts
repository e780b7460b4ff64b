import "server-only";
import { DECISIVE_ERROR_TARGET } from "@/lib/api/queues";
import { krippendorffAlpha } from "@/lib/stats";
import { pool, prisma } from "../db/client";
import { ApiError } from "../errors";

/**
 * Progress of a queue: items completed by N annotators, items skipped (not
 * complete, skipped by someone), pending (the rest), and what each assignee
 * has done and skipped.
 */
export async function queueProgress(queueId: number) {
  const queue = await prisma().queue.findUnique({ where: { id: queueId }, include: { assignees: true } });
  if (!queue) throw new ApiError(404, "not_found", `queue ${queueId} not found`);
  const [{ rows: totals }, { rows: people }] = await Promise.all([
    // skipped: not complete, and at least one annotator skipped it (another may still take it)
    pool().query<{ items: number; complete: number; skipped: number }>(
      `SELECT count(*)::int AS items, count(*) FILTER (WHERE i.done_count >= $2)::int AS complete,
         count(*) FILTER (WHERE i.done_count < $2 AND EXISTS (SELECT 1 FROM queue_work w WHERE w.item_id = i.id AND w.state = 'skipped'))::int AS skipped
       FROM queue_items i WHERE i.queue_id = $1`,
      [queueId, queue.annotatorsPerItem],
    ),
    pool().query<{ user_id: number; name: string; email: string; done: number; skipped: number }>(
      `SELECT u.id AS user_id, u.name, u.email,
         count(w.item_id) FILTER (WHERE w.state = 'done')::int AS done,
         count(w.item_id) FILTER (WHERE w.state = 'skipped')::int AS skipped
       FROM queue_assignees a JOIN users u ON u.id = a.user_id
       LEFT JOIN queue_work w ON w.user_id = a.user_id AND w.item_id IN (SELECT id FROM queue_items WHERE queue_id = $1)
       WHERE a.queue_id = $1 GROUP BY u.id ORDER BY u.name`,
      [queueId],
    ),
  ]);
  const t = totals[0]!;
  return { queue, items: t.items, complete: t.complete, skipped: t.skipped, pending: t.items - t.complete - t.skipped, people };
}

interface UnitValue {
  trace_key: string;
  event_id: string;
  family: string;
  annotator: string;
  value: number;
}

/** Current values of the queue's units in its families. */
async function unitValues(queueId: number): Promise<UnitValue[]> {
  const { rows } = await pool().query<UnitValue>(
    `SELECT a.trace_key, a.event_id, a.family, u.name AS annotator, a.value
     FROM queue_items i
     JOIN queues q ON q.id = i.queue_id
     JOIN annotations a ON a.trace_key = i.trace_key AND a.event_id = i.event_id AND a.family = ANY(q.families)
     JOIN users u ON u.id = a.annotator_id
     WHERE i.queue_id = $1 ORDER BY a.trace_key, a.event_id, a.family, u.name`,
    [queueId],
  );
  return rows;
}

function groupUnits(values: UnitValue[]) {
  const units = new Map<string, { trace_id: string; event_id: string | null; family: string; values: { annotator: string; value: number }[] }>();
  for (const v of values) {
    const key = `${v.trace_key}\u0000${v.event_id}\u0000${v.family}`;
    const unit = units.get(key) ?? { trace_id: v.trace_key, event_id: v.event_id || null, family: v.family, values: [] };
    unit.values.push({ annotator: v.annotator, value: v.value });
    units.set(key, unit);
  }
  return [...units.values()];
}

/**
 * Krippendorff's alpha (interval) per family over the queue's units, with the
 * number of units it rests on; for `decisive_error`, the agreement of SPEC.md
 * section 5 instead: over the queue's traces named by >= 2 people, the share
 * on which all name the same event (`same_event`) and the same agent
 * (`same_agent`, compared case-insensitively, trimmed); alpha is null there.
 */
export async function queueAgreement(queueId: number, families: readonly string[]) {
  const units = groupUnits(await unitValues(queueId));
  return Promise.all(families.map(async (family) => {
    if (family === DECISIVE_ERROR_TARGET) return { family, alpha: null, ...(await decisiveErrorAgreement(queueId)) };
    const values = units.filter((u) => u.family === family).map((u) => u.values.map((v) => v.value));
    return { family, alpha: krippendorffAlpha(values), units: values.filter((v) => v.length >= 2).length };
  }));
}

/** People's current decisive errors on the queue's trace items (imported ground truth is not a person). */
const PEOPLE_DECISIVE = `
  SELECT d.trace_key, d.event_id, d.agent, u.name AS annotator, d.created_at, d.id
  FROM queue_items i
  JOIN decisive_errors d ON d.trace_key = i.trace_key
  JOIN users u ON u.id = d.annotator_id AND NOT u.imported
  WHERE i.queue_id = $1 AND i.event_id = ''`;

async function decisiveErrorAgreement(queueId: number): Promise<{ units: number; same_event: number | null; same_agent: number | null }> {
  const { rows } = await pool().query<{ traces: number; same_event: number; same_agent: number }>(
    `SELECT count(*)::int AS traces, count(*) FILTER (WHERE events = 1)::int AS same_event, count(*) FILTER (WHERE agents = 1)::int AS same_agent
     FROM (SELECT trace_key, count(DISTINCT event_id) AS events, count(DISTINCT lower(btrim(agent))) AS agents
           FROM (${PEOPLE_DECISIVE}) p GROUP BY trace_key HAVING count(*) >= 2) x`,
    [queueId],
  );
  const r = rows[0]!;
  return { units: r.traces, same_event: r.traces > 0 ? r.same_event / r.traces : null, same_agent: r.traces > 0 ? r.same_agent / r.traces : null };
}

export interface DecisiveDisagreement {
  trace_id: string;
  /** every annotator's current decisive error, imported ground truth marked */
  labels: { annotator: string; imported: boolean; event_id: string; agent: string; reason: string | null }[];
  /** the distinct events people name, in the order first named */
  events: { event_id: string; agent: string }[];
  adjudicated: { event_id: string; agent: string } | null;
}

/** The queue's traces on which people name different decisive events, with every label and the adjudication, oldest trace first. */
export async function decisiveDisagreements(queueId: number): Promise<DecisiveDisagreement[]> {
  const { rows } = await pool().query<{ trace_key: string; event_id: string; agent: string; reason: string | null; annotator: string; imported: boolean; adj_event: string | null; adj_agent: string | null }>(
    `WITH split AS (SELECT trace_key FROM (${PEOPLE_DECISIVE}) p GROUP BY trace_key HAVING count(DISTINCT event_id) >= 2)
     SELECT d.trace_key, d.event_id, d.agent, d.reason, u.name AS annotator, u.imported, a.event_id AS adj_event, a.agent AS adj_agent
     FROM split s
     JOIN traces t ON t.trace_id = s.trace_key
     JOIN decisive_errors d ON d.trace_key = s.trace_key
     JOIN users u ON u.id = d.annotator_id
     LEFT JOIN decisive_error_adjudications a ON a.trace_key = s.trace_key
     ORDER BY t.id, d.created_at, d.id`,
    [queueId],
  );
  const out = new Map<string, DecisiveDisagreement>();
  for (const r of rows) {
    const entry = out.get(r.trace_key) ?? { trace_id: r.trace_key, labels: [], events: [], adjudicated: r.adj_event === null ? null : { event_id: r.adj_event, agent: r.adj_agent! } };
    entry.labels.push({ annotator: r.annotator, imported: r.imported, event_id: r.event_id, agent: r.agent, reason: r.reason });
    if (!r.imported && !entry.events.some((e) => e.event_id === r.event_id)) entry.events.push({ event_id: r.event_id, agent: r.agent });
    out.set(r.trace_key, entry);
  }
  return [...out.values()];
}

/** Units whose annotators disagree: spread (max - min) above `threshold`, largest first. */
export async function disagreements(queueId: number, threshold: number) {
  const units = groupUnits(await unitValues(queueId));
  const adjudicated = await prisma().adjudication.findMany({ where: { traceKey: { in: [...new Set(units.map((u) => u.trace_id))] } } });
  const final = new Map(adjudicated.map((a) => [`${a.traceKey}\u0000${a.eventId}\u0000${a.family}`, a.value]));
  return units
    .filter((u) => u.values.length >= 2)
    .map((u) => {
      const vs = u.values.map((v) => v.value);
      return { ...u, spread: Math.max(...vs) - Math.min(...vs), adjudicated: final.get(`${u.trace_id}\u0000${u.event_id ?? ""}\u0000${u.family}`) ?? null };
    })
    .filter((u) => u.spread > threshold)
    .sort((a, b) => b.spread - a.spread);
}
