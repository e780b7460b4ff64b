import { annotationContext } from "@/lib/api/contracts/annotations";
import { eventContext, traceContext } from "@/lib/server/annotate/context";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/annotations/context?event=<event id>: what an
 * annotator needs to grade the unit (lib/annotate/unit.ts): the event's
 * content, what it read and, for a tool call, its result; without `event`
 * the whole trace's task, final answer and compact timeline. Read access.
 */
export const GET = endpoint(annotationContext, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: async ({ query, access: { row } }) => (query.event === undefined ? await traceContext(row) : await eventContext(row, query.event)),
});
