import { searchParamsObject } from "@/lib/api/filters";
import { dashboardFilter } from "@/lib/dashboard/query";
import { readableProjects } from "@/lib/server/auth/access";
import { parseQuery, route } from "@/lib/server/http";
import { dashboardModel } from "@/lib/server/queries/dashboard";
import { toTraceFilter } from "@/lib/server/queries/dashboard-filter";

export const dynamic = "force-dynamic";

/** GET /api/dashboard?project=&system=&task_id=&group_id=&topology=&from=&to=: the dashboard's ready-to-draw model. */
export const GET = route(async (request: Request) => {
  const query = parseQuery(dashboardFilter, searchParamsObject(new URL(request.url).searchParams));
  const readable = await readableProjects(request);
  return Response.json(await dashboardModel(toTraceFilter(query, readable)));
});
