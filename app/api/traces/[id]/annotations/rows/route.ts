import { searchParamsObject } from "@/lib/api/filters";
import { labelRowsQuery } from "@/lib/annotate/rows";
import { labelRows } from "@/lib/server/annotate/rows";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/annotations/rows?from=&limit=: the label view's rows
 * (id, type, agent, summary) in event order with the task_success and
 * stop_decision anchors, straight from the stored events (no graph build):
 * the first page of a 100,000-event trace is as quick as a small one's.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { row } = await authorizeTrace(request, id, "read");
  const query = parseQuery(labelRowsQuery, searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await labelRows(row, query.from, query.limit));
});
