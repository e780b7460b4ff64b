import { annotationValues } from "@/lib/api/contracts/annotations";
import { storedUnitValues } from "@/lib/server/annotate/unit-values";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint } from "@/lib/server/endpoint";
import { ApiError } from "@/lib/server/errors";
import { prisma } from "@/lib/server/db/client";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/annotations/values?event=<event id>: per family of
 * the unit (the event, or the whole trace without `event`), people's labels
 * (count, mean, adjudication), the judges' current values with their
 * reasons, and which of them credit with judges uses. Read access.
 */
export const GET = endpoint(annotationValues, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: async ({ query, access: { row } }) => {
    if (query.event !== undefined) {
      const known = await prisma().event.findUnique({ where: { traceId_eventId: { traceId: row.id, eventId: query.event } }, select: { seq: true } });
      if (!known) throw new ApiError(404, "not_found", "no such event in this trace", [{ path: "event", message: "unknown event" }]);
    }
    return { event_id: query.event ?? null, families: await storedUnitValues(row, query.event ?? null) };
  },
});
