import { storedValuesChangedBy } from "@/lib/annotate/recompute";
import { deleteAnnotation, listAnnotations as listContract, saveAnnotation } from "@/lib/api/contracts/annotations";
import { authorizeTraceRef } from "@/lib/server/auth/trace-access";
import { recomputeAfterLabel, traceForRecompute } from "@/lib/server/compute/persist";
import { endpoint, reply } from "@/lib/server/endpoint";
import { deleteOwnAnnotation, listAnnotations, saveLabel } from "@/lib/server/queries/annotations";
import { ApiError } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/annotations: current values of every annotator (`?mine=1`: only the caller's). */
export const GET = endpoint(listContract, {
  access: (request, { id }) => authorizeTraceRef(request, id, "read"),
  handle: async ({ query, access: { row, actor } }) => ({ annotations: await listAnnotations(row.traceId, query.mine === "1" ? actor.userId : undefined) }),
});

/**
 * POST /api/traces/{id}/annotations: `{event_id?, family, value, comment?}`.
 * Credit is computed on read, so an event-level label recomputes nothing;
 * a trace-level one rewrites what it can change (R_total; for task_success
 * also E1, the verdict and the diagnostics: lib/annotate/recompute.ts). The
 * `Server-Timing` header says how long that took (bench:annotate reads it).
 */
export const POST = endpoint(saveAnnotation, {
  access: (request, { id }) => authorizeTraceRef(request, id, "annotate"),
  handle: async ({ body: input, access: { row, actor } }) => {
    const change = storedValuesChangedBy(input);
    // a trace-level label's recompute needs the trace: it loads while the label is written
    const loading = traceForRecompute(row, change);
    const { annotation, traceLabels } = await saveLabel(row.traceId, row.id, actor, input);
    const started = performance.now();
    await recomputeAfterLabel(row, change, { trace: loading, traceLabels });
    const recompute = performance.now() - started;
    return reply(annotation, { status: 201, headers: { "server-timing": `recompute;dur=${recompute.toFixed(2)}` } });
  },
});

/** DELETE /api/traces/{id}/annotations?family=&event_id=: removes the caller's own current value (undo); 404 when there is none. */
export const DELETE = endpoint(deleteAnnotation, {
  access: (request, { id }) => authorizeTraceRef(request, id, "annotate"),
  handle: async ({ query, access: { row, actor } }) => {
    const unit = { event_id: query.event_id ?? null, family: query.family };
    if (!(await deleteOwnAnnotation(row.traceId, actor, unit))) throw new ApiError(404, "not_found", "you have no label on this unit and family");
    await recomputeAfterLabel(row, storedValuesChangedBy(unit));
    return { deleted: unit };
  },
});
