import { searchParamsObject } from "@/lib/api/filters";
import { decisionFilter } from "@/lib/decisions/query";
import { readableProjects } from "@/lib/server/auth/access";
import { decisionAnalytics } from "@/lib/server/decisions/analytics";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * GET /api/decisions?project=&system=&task_id=&group_id=&topology=&policy_version=&from=&to=:
 * decision analytics (O1-O5: taken or not, by bucket, by checkpoint, within-group difference)
 * over the traces the caller may read.
 */
export const GET = route(async (request: Request) => {
  const query = parseQuery(decisionFilter, searchParamsObject(new URL(request.url).searchParams));
  const readable = await readableProjects(request);
  return Response.json(await decisionAnalytics(query, readable));
});
