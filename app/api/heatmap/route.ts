import { roleHeatmap } from "@/lib/api/contracts/analysis";
import { readableProjects } from "@/lib/server/auth/access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { roleFamilyHeatmap } from "@/lib/server/compute/heatmap";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** GET /api/heatmap?kind=role-family&project=&system=&task_id=&group_id=&max_traces=&method=&preset=&normalize=&w.<family>=: role x family across traces. */
export const GET = endpoint(roleHeatmap, {
  // the query (the heatmap's, then credit's) is checked before access
  handle: async ({ request, query: { kind: _kind, max_traces, ...filter } }) => {
    const credit = parseCreditQuery(new URL(request.url).searchParams);
    const readable = await readableProjects(request);
    return roleFamilyHeatmap({ ...filter, ...(readable !== null && { readable }) }, { kind: "role-family", max_traces }, credit);
  },
});
