import { editQueue as editContract, getQueue } from "@/lib/api/contracts/queues";
import { storedQueueFilter } from "@/lib/api/queues";
import { stored } from "@/lib/server/db/stored";
import { endpoint } from "@/lib/server/endpoint";
import { editQueue } from "@/lib/server/queues/edit";
import { authorizeQueue } from "@/lib/server/queues/route-helpers";
import { queueAgreement, queueProgress } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

/** GET /api/queues/{id}: progress per queue and person, and agreement per family. */
export const GET = endpoint(getQueue, {
  access: (request, { id }) => authorizeQueue(request, id, "read"),
  handle: async ({ access: { queue, project } }) => {
    const [progress, agreement] = await Promise.all([queueProgress(queue.id), queueAgreement(queue.id, queue.families)]);
    return {
      id: queue.id,
      name: queue.name,
      project,
      families: queue.families,
      annotators_per_item: queue.annotatorsPerItem,
      blind: queue.blind,
      closed: queue.closedAt !== null,
      order: queue.itemOrder,
      filter: stored(storedQueueFilter, queue.filter, `queue ${queue.id}: its filter`),
      items: progress.items,
      complete: progress.complete,
      skipped: progress.skipped,
      pending: progress.pending,
      people: progress.people,
      agreement,
    };
  },
});

/** PATCH /api/queues/{id} `{name?, families?, annotators_per_item?, blind?, closed?}` (project admin): edit, close or reopen. */
export const PATCH = endpoint(editContract, {
  access: (request, { id }) => authorizeQueue(request, id, "admin"),
  handle: async ({ body, access: { queue } }) => {
    const updated = await editQueue(queue.id, body);
    return { queue: { id: updated.id, name: updated.name, families: updated.families, annotators_per_item: updated.annotatorsPerItem, blind: updated.blind, closed: updated.closedAt !== null, order: updated.itemOrder } };
  },
});
