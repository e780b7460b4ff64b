import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { eventContext, traceContext } from "@/lib/server/annotate/context";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

const contextQuery = z.object({ event: z.string().min(1).max(512).optional() });

/**
 * GET /api/traces/{id}/annotations/context?event=<event id>: what an
 * annotator needs to grade the unit (lib/annotate/unit.ts): the event's
 * content, what it read and, for a tool call, its result; without `event`
 * the whole trace's task, final answer and compact timeline. Read access.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { row } = await authorizeTrace(request, id, "read");
  const query = parseQuery(contextQuery, searchParamsObject(new URL(request.url).searchParams));
  return Response.json(query.event === undefined ? await traceContext(row) : await eventContext(row, query.event));
});
