import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { storedUnitValues } from "@/lib/server/annotate/unit-values";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { ApiError } from "@/lib/server/errors";
import { parseQuery, route } from "@/lib/server/http";
import { prisma } from "@/lib/server/db/client";

export const dynamic = "force-dynamic";

const valuesQuery = z.object({ event: z.string().min(1).max(512).optional() });

/**
 * GET /api/traces/{id}/annotations/values?event=<event id>: per family of
 * the unit (the event, or the whole trace without `event`), people's labels
 * (count, mean, adjudication), the judges' current values with their
 * reasons, and which of them credit with judges uses. Read access.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { row } = await authorizeTrace(request, id, "read");
  const query = parseQuery(valuesQuery, searchParamsObject(new URL(request.url).searchParams));
  if (query.event !== undefined) {
    const known = await prisma().event.findUnique({ where: { traceId_eventId: { traceId: row.id, eventId: query.event } }, select: { seq: true } });
    if (!known) throw new ApiError(404, "not_found", "no such event in this trace", [{ path: "event", message: "unknown event" }]);
  }
  return Response.json({ event_id: query.event ?? null, families: await storedUnitValues(row, query.event ?? null) });
});
