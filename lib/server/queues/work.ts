import "server-only";
import type { z } from "zod";
import { isValidTaskSuccessLabel, TASK_SUCCESS_LABEL_MESSAGE } from "@/lib/api/annotations";
import { DECISIVE_ERROR_TARGET, type submitInput } from "@/lib/api/queues";
import { labelFamilies } from "@/lib/annotate/families";
import { storedValuesChangedBy, widestChange } from "@/lib/annotate/recompute";
import type { EventType } from "@/lib/trace/types";
import type { Actor } from "../auth/access";
import { recomputeAfterLabel } from "../compute/persist";
import { pool, prisma } from "../db/client";
import { ApiError } from "../errors";
import { saveAnnotation } from "../queries/annotations";
import { saveDecisiveError } from "../queries/decisive-errors";
import { scheduleBlameRefresh } from "../blame/jobs";

/**
 * Handing out queue items. An item is held by at most one annotator at a
 * time: `next` takes the first free item this annotator has neither done nor
 * skipped and that still needs annotators, locking it with FOR UPDATE SKIP
 * LOCKED so that concurrent callers never get the same one; a reservation
 * left to expire frees the item again.
 */
export interface HeldItem {
  id: number;
  position: number;
  trace_id: string;
  event_id: string | null;
  reserved_until: string;
}

export async function loadQueueFor(queueId: number, actor: Actor) {
  const queue = await prisma().queue.findUnique({ where: { id: queueId }, include: { assignees: true } });
  if (!queue) throw new ApiError(404, "not_found", `queue ${queueId} not found`);
  if (!queue.assignees.some((a) => a.userId === actor.userId)) throw new ApiError(403, "forbidden", "you are not assigned to this queue");
  if (queue.closedAt) throw new ApiError(409, "queue_closed", "this queue is closed: an admin may reopen it");
  return queue;
}

export async function nextItem(queueId: number, actor: Actor): Promise<HeldItem | null> {
  const queue = await loadQueueFor(queueId, actor);
  const { rows } = await pool().query<{ id: number; position: number; trace_key: string; event_id: string; reserved_until: Date }>(
    `WITH candidate AS (
       SELECT i.id FROM queue_items i
       WHERE i.queue_id = $1 AND i.done_count < $3
         AND (i.reserved_by IS NULL OR i.reserved_until < now() OR i.reserved_by = $2)
         AND NOT EXISTS (SELECT 1 FROM queue_work w WHERE w.item_id = i.id AND w.user_id = $2)
         AND EXISTS (SELECT 1 FROM traces t WHERE t.trace_id = i.trace_key)
       ORDER BY (i.reserved_by IS NOT DISTINCT FROM $2) DESC, i.position
       LIMIT 1
       FOR UPDATE SKIP LOCKED)
     UPDATE queue_items q SET reserved_by = $2, reserved_until = now() + make_interval(secs => $4)
     FROM candidate WHERE q.id = candidate.id
     RETURNING q.id, q.position, q.trace_key, q.event_id, q.reserved_until`,
    [queueId, actor.userId, queue.annotatorsPerItem, queue.reservationSeconds],
  );
  const row = rows[0];
  return row ? { id: row.id, position: row.position, trace_id: row.trace_key, event_id: row.event_id || null, reserved_until: row.reserved_until.toISOString() } : null;
}

/** Stores the labels of a held item, marks it done by this annotator and frees it. */
export async function submitItem(queueId: number, itemId: number, actor: Actor, input: z.infer<typeof submitInput>): Promise<void> {
  const queue = await loadQueueFor(queueId, actor);
  const item = await heldItem(queueId, itemId, actor);
  const unknown = input.labels.filter((l) => !queue.families.includes(l.family));
  if (unknown.length > 0) throw new ApiError(400, "invalid_input", "family not in this queue", unknown.map((l) => ({ path: "$.labels", message: `"${l.family}" is not labelled in this queue` })));
  const trace = await prisma().trace.findUnique({ where: { traceId: item.trace_key } });
  if (!trace) throw new ApiError(409, "conflict", "the item's trace was deleted");
  // only the families this unit anchors (SPEC.md section 2): a digit key must not write `cost` on a plan meant as a bad step
  const offered = await unitFamilies(trace.id, item.event_id || null, queue.families);
  const foreign = input.labels.flatMap((l, i) => (offered.includes(l.family) ? [] : [i]));
  if (foreign.length > 0) {
    throw new ApiError(400, "invalid_input", "family not anchored at this unit", foreign.map((i) => ({ path: `$.labels[${i}].family`, message: `"${input.labels[i]!.family}" is not a family of this unit (it offers ${offered.join(", ") || "none"})` })));
  }
  // SPEC.md section 5: a trace-level item's task_success label is 0 or 1, as on the annotations route
  const badLabels = input.labels.flatMap((l, i) => (isValidTaskSuccessLabel(item.event_id || null, l.family, l.value) ? [] : [i]));
  if (badLabels.length > 0) throw new ApiError(400, "invalid_input", TASK_SUCCESS_LABEL_MESSAGE, badLabels.map((i) => ({ path: `$.labels[${i}].value`, message: TASK_SUCCESS_LABEL_MESSAGE })));
  // the decisive error (SPEC.md section 5) is asked of a whole trace, on a queue that asks for it
  const asksDecisive = item.event_id === "" && queue.families.includes(DECISIVE_ERROR_TARGET);
  if (input.decisive_error && !asksDecisive) {
    throw new ApiError(400, "invalid_input", "this unit does not ask for a decisive error", [{ path: "$.decisive_error", message: queue.families.includes(DECISIVE_ERROR_TARGET) ? "asked of whole traces only" : "this queue does not ask for the decisive error" }]);
  }
  if (input.labels.length === 0 && !input.decisive_error) {
    const named = asksDecisive && (await prisma().decisiveError.findUnique({ where: { traceKey_annotatorId: { traceKey: item.trace_key, annotatorId: actor.userId } } }));
    if (!named) {
      throw new ApiError(400, "invalid_input", asksDecisive ? "name the decisive error of this trace (or label it, or skip it)" : "no label given", [asksDecisive ? { path: "$.decisive_error", message: "you have named no decisive error on this trace" } : { path: "$.labels", message: "at least one label" }]);
    }
  }
  if (input.decisive_error) await saveDecisiveError(trace, actor, input.decisive_error);
  for (const label of input.labels) {
    await saveAnnotation(item.trace_key, trace.id, actor, { event_id: item.event_id || null, family: label.family, value: label.value, comment: label.comment });
  }
  await finish(itemId, actor, "done");
  if (input.decisive_error) await scheduleBlameRefresh({ project: (await prisma().project.findUniqueOrThrow({ where: { id: trace.projectId }, select: { name: true } })).name });
  // credit is computed on read: only trace-level labels change stored values (lib/annotate/recompute.ts)
  await recomputeAfterLabel(trace, widestChange(input.labels.map((l) => storedValuesChangedBy({ event_id: item.event_id || null, family: l.family }))));
}

export async function skipItem(queueId: number, itemId: number, actor: Actor, reason?: string): Promise<void> {
  await loadQueueFor(queueId, actor);
  await heldItem(queueId, itemId, actor);
  await finish(itemId, actor, "skipped", reason);
}

async function heldItem(queueId: number, itemId: number, actor: Actor) {
  const { rows } = await pool().query<{ trace_key: string; event_id: string }>(
    "SELECT trace_key, event_id FROM queue_items WHERE id = $1 AND queue_id = $2 AND reserved_by = $3 AND reserved_until >= now()",
    [itemId, queueId, actor.userId],
  );
  if (!rows[0]) throw new ApiError(409, "conflict", "this item is not reserved for you (the reservation may have expired): take the next item");
  return rows[0];
}

async function finish(itemId: number, actor: Actor, state: "done" | "skipped", reason?: string): Promise<void> {
  const client = await pool().connect();
  try {
    await client.query("BEGIN");
    const inserted = await client.query(
      `INSERT INTO queue_work (item_id, user_id, state, reason) VALUES ($1, $2, $3, $4) ON CONFLICT (item_id, user_id) DO NOTHING`,
      [itemId, actor.userId, state, reason || null],
    );
    await client.query(
      `UPDATE queue_items SET reserved_by = NULL, reserved_until = NULL,
         done_count = done_count + CASE WHEN $3 = 'done' AND $2::int > 0 THEN 1 ELSE 0 END
       WHERE id = $1`,
      [itemId, inserted.rowCount ?? 0, state],
    );
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** What the work page shows for a held item: the event (content as text, drawn as text), and others' values unless the queue is blind. */
export async function describeItem(queueId: number, item: HeldItem | null, actor: Actor) {
  if (!item) return null;
  const queue = await prisma().queue.findUniqueOrThrow({ where: { id: queueId } });
  const trace = await prisma().trace.findUnique({ where: { traceId: item.trace_id } });
  if (!trace) return { ...item, families: [], decisive_error: false, event_count: 0, event: null, others: [] };
  const event = item.event_id ? await prisma().event.findUnique({ where: { traceId_eventId: { traceId: trace.id, eventId: item.event_id } } }) : null;
  const content = event ? await prisma().eventContent.findUnique({ where: { traceId_seq: { traceId: trace.id, seq: event.seq } } }) : null;
  const others = queue.blind
    ? []
    : await prisma().annotation.findMany({
        where: { traceKey: item.trace_id, eventId: item.event_id ?? "", family: { in: queue.families }, annotatorId: { not: actor.userId } },
        select: { family: true, value: true, annotator: { select: { name: true } } },
      });
  const families = await unitFamilies(trace.id, item.event_id, queue.families);
  return {
    ...item,
    /** reward families to label (the decisive error is asked apart, below) */
    families: families.filter((f) => f !== DECISIVE_ERROR_TARGET),
    decisive_error: families.includes(DECISIVE_ERROR_TARGET),
    event_count: trace.eventCount,
    task_id: trace.taskId,
    system: trace.system,
    event: event && {
      id: event.eventId, seq: event.seq, t: event.t, type: event.type, agent: event.agent, role: event.role,
      from: event.fromAgent, to: event.toAgent, tool: event.tool, decision: event.decision, status: event.status,
      content: content?.content ?? null,
    },
    others: others.map((o) => ({ family: o.family, value: o.value, annotator: o.annotator.name })),
  };
}

/**
 * The queue's families that a unit can carry, in the queue's order: all of
 * them for the whole trace (with `decisive_error` when the queue asks for it); for an event, those anchored at its type
 * (SPEC.md section 2), stop_decision at the trace's stop events (else its
 * terminal event), and cost everywhere.
 */
export async function unitFamilies(traceDbId: number, eventId: string | null, families: readonly string[]): Promise<string[]> {
  if (eventId === null) return [...families];
  const { rows } = await pool().query<{ type: EventType; stop_anchor: boolean }>({
    name: "queues.unit-families",
    text: `SELECT e.type,
         CASE WHEN EXISTS (SELECT 1 FROM events s WHERE s.trace_id = $1 AND s.type = 'orchestrator_decision' AND s.decision = 'stop')
              THEN e.type = 'orchestrator_decision' AND e.decision IS NOT DISTINCT FROM 'stop'
              ELSE e.seq = COALESCE((SELECT max(a.seq) FROM events a WHERE a.trace_id = $1 AND a.type = 'aggregate'), (SELECT max(l.seq) FROM events l WHERE l.trace_id = $1))
         END AS stop_anchor
       FROM events e WHERE e.trace_id = $1 AND e.event_id = $2`,
    values: [traceDbId, eventId],
  });
  const row = rows[0];
  if (!row) return [];
  const anchored = new Set<string>(labelFamilies({ type: row.type }, { stopAnchor: row.stop_anchor }));
  return families.filter((f) => anchored.has(f));
}
