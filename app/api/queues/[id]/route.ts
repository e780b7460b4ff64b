import { queuePatchInput } from "@/lib/api/queue-edit";
import { parseJsonRequest, route } from "@/lib/server/http";
import { editQueue } from "@/lib/server/queues/edit";
import { authorizeQueue } from "@/lib/server/queues/route-helpers";
import { queueAgreement, queueProgress } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

/** GET /api/queues/{id}: progress per queue and person, and agreement per family. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { queue, project } = await authorizeQueue(request, (await params).id, "read");
  const [progress, agreement] = await Promise.all([queueProgress(queue.id), queueAgreement(queue.id, queue.families)]);
  return Response.json({
    id: queue.id,
    name: queue.name,
    project,
    families: queue.families,
    annotators_per_item: queue.annotatorsPerItem,
    blind: queue.blind,
    closed: queue.closedAt !== null,
    order: queue.itemOrder,
    filter: queue.filter,
    items: progress.items,
    complete: progress.complete,
    skipped: progress.skipped,
    pending: progress.pending,
    people: progress.people,
    agreement,
  });
});

/** PATCH /api/queues/{id} `{name?, families?, annotators_per_item?, blind?, closed?}` (project admin): edit, close or reopen. */
export const PATCH = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { queue } = await authorizeQueue(request, (await params).id, "admin");
  const updated = await editQueue(queue.id, await parseJsonRequest(request, queuePatchInput));
  return Response.json({ queue: { id: updated.id, name: updated.name, families: updated.families, annotators_per_item: updated.annotatorsPerItem, blind: updated.blind, closed: updated.closedAt !== null, order: updated.itemOrder } });
});
