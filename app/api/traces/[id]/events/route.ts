import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { eventPageQuery, searchParamsObject } from "@/lib/api/filters";
import { parseQuery, route } from "@/lib/server/http";
import { listEvents } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/events: events in event order, paged; content with content=1. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "read");
  const query = parseQuery(eventPageQuery, searchParamsObject(new URL(request.url).searchParams));
  return Response.json(await listEvents(id, { cursor: query.cursor, limit: query.limit, content: query.content === "1" }));
});
