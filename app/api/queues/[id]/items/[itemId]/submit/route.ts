import { submitInput } from "@/lib/api/queues";
import { parseJsonRequest, route } from "@/lib/server/http";
import { itemIdFromParam, authorizeQueue } from "@/lib/server/queues/route-helpers";
import { describeItem, nextItem, submitItem } from "@/lib/server/queues/work";

export const dynamic = "force-dynamic";

/** POST /api/queues/{id}/items/{itemId}/submit `{labels: [{family, value, comment?}]}`: stores them and hands out the next item. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string; itemId: string }> }) => {
  const p = await params;
  const { queue, actor } = await authorizeQueue(request, p.id, "annotate");
  await submitItem(queue.id, itemIdFromParam(p.itemId), actor, await parseJsonRequest(request, submitInput));
  return Response.json({ next: await describeItem(queue.id, await nextItem(queue.id, actor), actor) });
});
