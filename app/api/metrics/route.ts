import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { filterText } from "@/lib/api/params";
import { judgesParam } from "@/lib/judges/selection";
import { readableProjects } from "@/lib/server/auth/access";
import { parseQuery, route } from "@/lib/server/http";
import { aggregateMetrics } from "@/lib/server/queries/metrics";
import { TOPOLOGIES } from "@/lib/trace/types";

export const dynamic = "force-dynamic";

const text = filterText.optional();
const filter = z.strictObject({ project: text, system: text, task_id: text, group_id: text, topology: z.enum(TOPOLOGIES).optional(), judges: judgesParam });

/**
 * GET /api/metrics?project=&system=&task_id=&group_id=&topology=&judges=: metrics aggregated over the
 * matching traces; `judges=all|name,...` lets judge task_success values decide E1 where no person labelled it.
 */
export const GET = route(async (request: Request) => {
  const query = parseQuery(filter, searchParamsObject(new URL(request.url).searchParams));
  const readable = await readableProjects(request);
  return Response.json(await aggregateMetrics({ ...query, ...(readable !== null && { readable }) }));
});
