import { dashboard } from "@/lib/api/contracts/aggregates";
import { readableProjects } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { dashboardModel } from "@/lib/server/queries/dashboard";
import { toTraceFilter } from "@/lib/server/queries/dashboard-filter";

export const dynamic = "force-dynamic";

/** GET /api/dashboard?project=&system=&task_id=&group_id=&topology=&from=&to=&judges=: the dashboard's ready-to-draw model (`judges=`: E1 as GET /api/metrics takes it). */
export const GET = endpoint(dashboard, {
  // the filter, then `judges` (a bad filter is reported alone), both before access
  handle: async ({ request, query }) => dashboardModel(toTraceFilter(query.filter, await readableProjects(request)), query.judges),
});
