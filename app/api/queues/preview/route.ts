import { queuePreviewInput } from "@/lib/api/queue-edit";
import { authorize } from "@/lib/server/auth/access";
import { parseJsonRequest, route } from "@/lib/server/http";
import { previewQueue } from "@/lib/server/queues/edit";

export const dynamic = "force-dynamic";

/** POST /api/queues/preview `{project, filter}` (project admin): `{items}`, how many items the queue would hold; creates nothing. */
export const POST = route(async (request: Request) => {
  await authorize(request, "admin");
  const input = await parseJsonRequest(request, queuePreviewInput);
  await authorize(request, "admin", input.project);
  return Response.json({ items: await previewQueue(input.project, input.filter) });
});
