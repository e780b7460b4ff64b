import { nextQueueItem } from "@/lib/api/contracts/queues";
import { endpoint } from "@/lib/server/endpoint";
import { authorizeQueue } from "@/lib/server/queues/route-helpers";
import { describeItem, nextItem } from "@/lib/server/queues/work";

export const dynamic = "force-dynamic";

/** POST /api/queues/{id}/next: reserves the caller's next item (or returns the one they hold); `{item: null}` when none is left. */
export const POST = endpoint(nextQueueItem, {
  access: (request, { id }) => authorizeQueue(request, id, "annotate"),
  handle: async ({ access: { queue, actor } }) => ({ item: await describeItem(queue.id, await nextItem(queue.id, actor), actor) }),
});
