import { submitQueueItem } from "@/lib/api/contracts/queues";
import { endpoint } from "@/lib/server/endpoint";
import { itemIdFromParam, authorizeQueue } from "@/lib/server/queues/route-helpers";
import { describeItem, nextItem, submitItem } from "@/lib/server/queues/work";

export const dynamic = "force-dynamic";

/** POST /api/queues/{id}/items/{itemId}/submit `{labels: [{family, value, comment?}]}`: stores them and hands out the next item. */
export const POST = endpoint(submitQueueItem, {
  access: (request, { id }) => authorizeQueue(request, id, "annotate"),
  handle: async ({ params, body, access: { queue, actor } }) => {
    await submitItem(queue.id, itemIdFromParam(params.itemId), actor, body);
    return { next: await describeItem(queue.id, await nextItem(queue.id, actor), actor) };
  },
});
