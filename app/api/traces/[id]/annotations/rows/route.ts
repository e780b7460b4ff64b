import { annotationRows } from "@/lib/api/contracts/annotations";
import { labelRows } from "@/lib/server/annotate/rows";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * GET /api/traces/{id}/annotations/rows?from=&limit=: the label view's rows
 * (id, type, agent, summary) in event order with the task_success and
 * stop_decision anchors, straight from the stored events (no graph build):
 * the first page of a 100,000-event trace is as quick as a small one's.
 */
export const GET = endpoint(annotationRows, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: async ({ query, access: { row } }) => labelRows(row, query.from, query.limit),
});
