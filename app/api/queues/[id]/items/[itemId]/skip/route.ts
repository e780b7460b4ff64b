import { skipInput } from "@/lib/api/queue-edit";
import { parseJsonRequest, route } from "@/lib/server/http";
import { itemIdFromParam, authorizeQueue } from "@/lib/server/queues/route-helpers";
import { describeItem, nextItem, skipItem } from "@/lib/server/queues/work";

export const dynamic = "force-dynamic";

/** POST /api/queues/{id}/items/{itemId}/skip `{reason?}` (body optional): leaves the item to others, keeps the reason, hands out the next one. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string; itemId: string }> }) => {
  const p = await params;
  const { queue, actor } = await authorizeQueue(request, p.id, "annotate");
  const body = request.headers.get("content-type") ? await parseJsonRequest(request, skipInput) : {};
  await skipItem(queue.id, itemIdFromParam(p.itemId), actor, body.reason);
  return Response.json({ next: await describeItem(queue.id, await nextItem(queue.id, actor), actor) });
});
