import { decisiveErrorInput } from "@/lib/api/decisive-errors";
import { authorizeTraceRef } from "@/lib/server/auth/trace-access";
import { ApiError } from "@/lib/server/errors";
import { scheduleBlameRefresh } from "@/lib/server/blame/jobs";
import { parseJsonRequest, route } from "@/lib/server/http";
import { decisiveErrorsOf, deleteOwnDecisiveError, saveDecisiveError } from "@/lib/server/queries/decisive-errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/traces/{id}/decisive-error: every annotator's decisive error, the adjudication, and the trace's decisive event (SPEC.md sections 5, 6). */
export const GET = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row } = await authorizeTraceRef(request, id, "read");
  return Response.json(await decisiveErrorsOf(row.traceId));
});

/** PUT /api/traces/{id}/decisive-error: `{event_id, agent?, reason?}`, the caller's "the run went wrong here" (one per trace and annotator; the old value is kept as history). */
export const PUT = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTraceRef(request, id, "annotate");
  const input = await parseJsonRequest(request, decisiveErrorInput);
  const saved = await saveDecisiveError(row, actor, input);
  await scheduleBlameRefresh({ project: row.project.name });
  return Response.json(saved);
});

/** DELETE /api/traces/{id}/decisive-error: removes the caller's own; 404 when there is none. */
export const DELETE = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTraceRef(request, id, "annotate");
  if (!(await deleteOwnDecisiveError(row.traceId, actor))) throw new ApiError(404, "not_found", "you have named no decisive error on this trace");
  await scheduleBlameRefresh({ project: row.project.name });
  return Response.json({ deleted: true });
});
