import { skipQueueItem } from "@/lib/api/contracts/queues";
import { endpoint } from "@/lib/server/endpoint";
import { itemIdFromParam, authorizeQueue } from "@/lib/server/queues/route-helpers";
import { describeItem, nextItem, skipItem } from "@/lib/server/queues/work";

export const dynamic = "force-dynamic";

/** POST /api/queues/{id}/items/{itemId}/skip `{reason?}` (body optional): leaves the item to others, keeps the reason, hands out the next one. */
export const POST = endpoint(skipQueueItem, {
  access: (request, { id }) => authorizeQueue(request, id, "annotate"),
  handle: async ({ params, body, access: { queue, actor } }) => {
    await skipItem(queue.id, itemIdFromParam(params.itemId), actor, body?.reason);
    return { next: await describeItem(queue.id, await nextItem(queue.id, actor), actor) };
  },
});
