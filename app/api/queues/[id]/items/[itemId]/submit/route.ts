import { submitQueueItem } from "@/lib/api/contracts/queues";
import { endpoint } from "@/lib/server/endpoint";
import { itemIdFromParam, authorizeQueue } from "@/lib/server/queues/route-helpers";
import { describeItem, nextItem, submitItem } from "@/lib/server/queues/work";

export const dynamic = "force-dynamic";

/** POST /api/queues/{id}/items/{itemId}/submit `{labels: [{family, value, comment?}]}`: stores them and hands out the next item. */
export const POST = endpoint(submitQueueItem, {
  // the item id is checked (404) before the body is read
  access: async (request, { id, itemId }) => ({ ...(await authorizeQueue(request, id, "annotate")), itemId: itemIdFromParam(itemId) }),
  handle: async ({ body, access: { queue, actor, itemId } }) => {
    await submitItem(queue.id, itemId, actor, body);
    return { next: await describeItem(queue.id, await nextItem(queue.id, actor), actor) };
  },
});
