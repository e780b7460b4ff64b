import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { filterText } from "@/lib/api/params";
import { readableProjects } from "@/lib/server/auth/access";
import { flagTrend } from "@/lib/server/hacking/queries";
import { parseQuery, route } from "@/lib/server/http";
import { TOPOLOGIES } from "@/lib/trace/types";

export const dynamic = "force-dynamic";

const text = filterText.optional();
const filter = z.strictObject({ project: text, system: text, task_id: text, group_id: text, topology: z.enum(TOPOLOGIES).optional() });

/** GET /api/diagnostics/trend?project=&system=&task_id=&group_id=&topology=: flag rates per detector by policy_version. */
export const GET = route(async (request: Request) => {
  const query = parseQuery(filter, searchParamsObject(new URL(request.url).searchParams));
  const readable = await readableProjects(request);
  return Response.json(await flagTrend({ ...query, ...(readable !== null && { readable }) }));
});
