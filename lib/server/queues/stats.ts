import "server-only";
import { krippendorffAlpha } from "@/lib/stats";
import { pool, prisma } from "../db/client";
import { ApiError } from "../errors";

/** Progress of a queue: items completed by N annotators, and what each assignee has done. */
export async function queueProgress(queueId: number) {
  const queue = await prisma().queue.findUnique({ where: { id: queueId }, include: { assignees: true } });
  if (!queue) throw new ApiError(404, "not_found", `queue ${queueId} not found`);
  const [{ rows: totals }, { rows: people }] = await Promise.all([
    pool().query<{ items: number; complete: number }>(
      "SELECT count(*)::int AS items, count(*) FILTER (WHERE done_count >= $2)::int AS complete FROM queue_items WHERE queue_id = $1",
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
  return { queue, items: totals[0]!.items, complete: totals[0]!.complete, people };
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

/** Krippendorff's alpha (interval) per family over the queue's units, with the number of units it rests on. */
export async function queueAgreement(queueId: number, families: readonly string[]) {
  const units = groupUnits(await unitValues(queueId));
  return families.map((family) => {
    const values = units.filter((u) => u.family === family).map((u) => u.values.map((v) => v.value));
    return { family, alpha: krippendorffAlpha(values), units: values.filter((v) => v.length >= 2).length };
  });
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
