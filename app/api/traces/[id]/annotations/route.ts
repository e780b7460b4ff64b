import { annotationInput } from "@/lib/api/annotations";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { recomputeMetrics } from "@/lib/server/compute/persist";
import { parseJsonRequest, route } from "@/lib/server/http";
import { listAnnotations, saveAnnotation } from "@/lib/server/queries/annotations";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/traces/{id}/annotations: current values of every annotator (`?mine=1`: only the caller's). */
export const GET = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTrace(request, id, "read");
  const mine = new URL(request.url).searchParams.get("mine") === "1";
  return Response.json({ annotations: await listAnnotations(row.traceId, mine ? actor.userId : undefined) });
});

/** POST /api/traces/{id}/annotations: `{event_id?, family, value, comment?}`; metrics are recomputed at once. */
export const POST = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTrace(request, id, "annotate");
  const input = await parseJsonRequest(request, annotationInput);
  const annotation = await saveAnnotation(row.traceId, row.id, actor, input);
  await recomputeMetrics(row.id);
  return Response.json(annotation, { status: 201 });
});
