import { route } from "@/lib/server/http";
import { authorizeQueue } from "@/lib/server/queues/route-helpers";
import { describeItem, nextItem } from "@/lib/server/queues/work";

export const dynamic = "force-dynamic";

/** POST /api/queues/{id}/next: reserves the caller's next item (or returns the one they hold); `{item: null}` when none is left. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { queue, actor } = await authorizeQueue(request, (await params).id, "annotate");
  return Response.json({ item: await describeItem(queue.id, await nextItem(queue.id, actor), actor) });
});
