import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { judgesParam } from "@/lib/judges/selection";
import { dashboardFilter } from "@/lib/dashboard/query";
import { readableProjects } from "@/lib/server/auth/access";
import { dashboard } from "@/lib/api/contracts/aggregates";
import { endpoint } from "@/lib/server/endpoint";
import { parseQuery } from "@/lib/server/http";
import { dashboardModel } from "@/lib/server/queries/dashboard";
import { toTraceFilter } from "@/lib/server/queries/dashboard-filter";

export const dynamic = "force-dynamic";

/** GET /api/dashboard?project=&system=&task_id=&group_id=&topology=&from=&to=&judges=: the dashboard's ready-to-draw model (`judges=`: E1 as GET /api/metrics takes it). */
export const GET = endpoint(dashboard, {
  handle: async ({ request }) => {
    // the filter first, then `judges` (a bad filter is reported alone), both before access
    const { judges: judgesText, ...params } = searchParamsObject(new URL(request.url).searchParams);
    const query = parseQuery(dashboardFilter, params);
    const { judges } = parseQuery(z.object({ judges: judgesParam }), judgesText === undefined ? {} : { judges: judgesText });
    const readable = await readableProjects(request);
    return dashboardModel(toTraceFilter(query, readable), judges);
  },
});
