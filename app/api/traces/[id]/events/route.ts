import { traceEvents } from "@/lib/api/contracts/traces";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint } from "@/lib/server/endpoint";
import { listEvents } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/events: events in event order, paged; content with content=1. */
export const GET = endpoint(traceEvents, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: ({ params: { id }, query }) => listEvents(id, { cursor: query.cursor, limit: query.limit, content: query.content === "1" }),
});
