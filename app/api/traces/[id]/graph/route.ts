import { searchParamsObject } from "@/lib/api/filters";
import { graphQuery } from "@/lib/graph-view/query";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseCreditQuery } from "@/lib/server/compute/credit";
import { parseQuery, route } from "@/lib/server/http";
import { graphCredit, graphEventsJson, graphMeta } from "@/lib/server/queries/graph";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/graph?part=meta|events|credit: the graph view's data
 * as columns with string tables, paged by event window (see
 * lib/graph-view/wire.ts and components/trace-graph/README.md).
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "read");
  const search = new URL(request.url).searchParams;
  const query = parseQuery(graphQuery, searchParamsObject(search));
  switch (query.part) {
    case "meta":
      return Response.json(await graphMeta(id));
    case "events":
      return new Response(await graphEventsJson(id, query.from, query.limit), { headers: { "content-type": "application/json" } });
    case "credit":
      return Response.json(await graphCredit(id, parseCreditQuery(search), query));
  }
});
