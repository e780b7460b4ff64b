import { z } from "zod";
import { BEST, METHODS } from "@/lib/blame";
import { searchParamsObject } from "@/lib/api/filters";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { blameOf } from "@/lib/server/blame/rank";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

// a judge's stored attributions are `judge:<judge name>:<mode>`
const query = z.strictObject({ method: z.union([z.enum([BEST, ...METHODS.map((m) => m.name)]), z.string().regex(/^judge:.+:(all_at_once|binary_search|step_by_step)$/)]).default(BEST) });

/**
 * GET /api/traces/{id}/blame?method=: the trace's events and agents ranked by
 * blame (SPEC.md section 10), rank 1 the method's decisive error; tied items
 * share a rank. `best` (the default) is the method with the best
 * cross-validated step accuracy on the labelled traces of the trace's project
 * (of its system in the project, when the project holds several).
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const q = parseQuery(query, searchParamsObject(new URL(request.url).searchParams));
  const { row } = await authorizeTrace(request, id, "read");
  return Response.json(await blameOf({ id: row.id, traceId: row.traceId, groupId: row.groupId, projectId: row.projectId, project: row.project.name, system: row.system }, q.method));
});
