import { traceHeatmap as heatmapContract } from "@/lib/api/contracts/analysis";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { traceHeatmap } from "@/lib/server/compute/heatmap";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/heatmap?kind=agent-time|event-family&buckets=&offset=&limit=&method=&preset=&normalize=&w.<family>=: a ready-to-draw credit heatmap. */
export const GET = endpoint(heatmapContract, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: ({ request, params: { id }, query: heatmap }) => traceHeatmap(id, heatmap, parseCreditQuery(new URL(request.url).searchParams)),
});
