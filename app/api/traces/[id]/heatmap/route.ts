import { searchParamsObject } from "@/lib/api/filters";
import { traceHeatmapQuery } from "@/lib/heatmap/query";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { traceHeatmap } from "@/lib/server/compute/heatmap";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/heatmap?kind=agent-time|event-family&buckets=&offset=&limit=&method=&preset=&normalize=&w.<family>=: a ready-to-draw credit heatmap. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "read");
  const search = new URL(request.url).searchParams;
  const heatmap = parseQuery(traceHeatmapQuery, searchParamsObject(search));
  return Response.json(await traceHeatmap(id, heatmap, parseCreditQuery(search)));
});
