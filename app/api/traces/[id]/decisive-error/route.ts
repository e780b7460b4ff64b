import { deleteDecisiveError, getDecisiveErrors, putDecisiveError } from "@/lib/api/contracts/decisive-errors";
import { authorizeTraceRef } from "@/lib/server/auth/trace-access";
import { ApiError } from "@/lib/server/errors";
import { scheduleBlameRefresh } from "@/lib/server/blame/jobs";
import { endpoint } from "@/lib/server/endpoint";
import { decisiveErrorsOf, deleteOwnDecisiveError, saveDecisiveError } from "@/lib/server/queries/decisive-errors";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/decisive-error: every annotator's decisive error, the adjudication, and the trace's decisive event (SPEC.md sections 5, 6). */
export const GET = endpoint(getDecisiveErrors, {
  access: (request, { id }) => authorizeTraceRef(request, id, "read"),
  handle: ({ access: { row } }) => decisiveErrorsOf(row.traceId),
});

/** PUT /api/traces/{id}/decisive-error: `{event_id, agent?, reason?}`, the caller's "the run went wrong here" (one per trace and annotator; the old value is kept as history). */
export const PUT = endpoint(putDecisiveError, {
  access: (request, { id }) => authorizeTraceRef(request, id, "annotate"),
  handle: async ({ body, access: { row, actor } }) => {
    const saved = await saveDecisiveError(row, actor, body);
    await scheduleBlameRefresh({ project: row.project.name });
    return saved;
  },
});

/** DELETE /api/traces/{id}/decisive-error: removes the caller's own; 404 when there is none. */
export const DELETE = endpoint(deleteDecisiveError, {
  access: (request, { id }) => authorizeTraceRef(request, id, "annotate"),
  handle: async ({ access: { row, actor } }) => {
    if (!(await deleteOwnDecisiveError(row.traceId, actor))) throw new ApiError(404, "not_found", "you have named no decisive error on this trace");
    await scheduleBlameRefresh({ project: row.project.name });
    return { deleted: true as const };
  },
});
