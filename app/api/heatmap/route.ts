import { searchParamsObject } from "@/lib/api/filters";
import { roleHeatmapQuery } from "@/lib/heatmap/query";
import { readableProjects } from "@/lib/server/auth/access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { roleFamilyHeatmap } from "@/lib/server/compute/heatmap";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/heatmap?kind=role-family&project=&system=&task_id=&group_id=&max_traces=&method=&preset=&normalize=&w.<family>=: role x family across traces. */
export const GET = route(async (request: Request) => {
  const search = new URL(request.url).searchParams;
  const { kind: _kind, max_traces, ...filter } = parseQuery(roleHeatmapQuery, searchParamsObject(search));
  const credit = parseCreditQuery(search);
  const readable = await readableProjects(request);
  return Response.json(await roleFamilyHeatmap({ ...filter, ...(readable !== null && { readable }) }, { kind: "role-family", max_traces }, credit));
});
