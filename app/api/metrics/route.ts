import { aggregateMetrics as metricsContract } from "@/lib/api/contracts/workspace";
import { readableProjects } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { aggregateMetrics } from "@/lib/server/queries/metrics";

export const dynamic = "force-dynamic";


/**
 * GET /api/metrics?project=&system=&task_id=&group_id=&topology=&judges=: metrics aggregated over the
 * matching traces; `judges=all|name,...` lets judge task_success values decide E1 where no person labelled it.
 */
export const GET = endpoint(metricsContract, {
  // the query is checked before access (a bad filter is a 400 for anyone)
  handle: async ({ request, query }) => {
    const readable = await readableProjects(request);
    return aggregateMetrics({ ...query, ...(readable !== null && { readable }) });
  },
});
