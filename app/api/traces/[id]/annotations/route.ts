import { storedValuesChangedBy } from "@/lib/annotate/recompute";
import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { annotationInput } from "@/lib/api/annotations";
import { FAMILIES } from "@/lib/trace/types";
import { authorizeTraceRef } from "@/lib/server/auth/trace-access";
import { recomputeAfterLabel, traceForRecompute } from "@/lib/server/compute/persist";
import { parseJsonRequest, parseQuery, route } from "@/lib/server/http";
import { deleteOwnAnnotation, listAnnotations, saveLabel } from "@/lib/server/queries/annotations";
import { ApiError } from "@/lib/server/errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/traces/{id}/annotations: current values of every annotator (`?mine=1`: only the caller's). */
export const GET = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTraceRef(request, id, "read");
  const mine = new URL(request.url).searchParams.get("mine") === "1";
  return Response.json({ annotations: await listAnnotations(row.traceId, mine ? actor.userId : undefined) });
});

/**
 * POST /api/traces/{id}/annotations: `{event_id?, family, value, comment?}`.
 * Credit is computed on read, so an event-level label recomputes nothing;
 * a trace-level one rewrites what it can change (R_total; for task_success
 * also E1, the verdict and the diagnostics: lib/annotate/recompute.ts). The
 * `Server-Timing` header says how long that took (bench:annotate reads it).
 */
export const POST = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTraceRef(request, id, "annotate");
  const input = await parseJsonRequest(request, annotationInput);
  const change = storedValuesChangedBy(input);
  // a trace-level label's recompute needs the trace: it loads while the label is written
  const loading = traceForRecompute(row, change);
  const { annotation, traceLabels } = await saveLabel(row.traceId, row.id, actor, input);
  const started = performance.now();
  await recomputeAfterLabel(row, change, { trace: loading, traceLabels });
  const recompute = performance.now() - started;
  return Response.json(annotation, { status: 201, headers: { "server-timing": `recompute;dur=${recompute.toFixed(2)}` } });
});

const deleteQuery = z.object({ family: z.enum(FAMILIES), event_id: z.string().min(1).optional() });

/** DELETE /api/traces/{id}/annotations?family=&event_id=: removes the caller's own current value (undo); 404 when there is none. */
export const DELETE = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTraceRef(request, id, "annotate");
  const query = parseQuery(deleteQuery, searchParamsObject(new URL(request.url).searchParams));
  const unit = { event_id: query.event_id ?? null, family: query.family };
  if (!(await deleteOwnAnnotation(row.traceId, actor, unit))) throw new ApiError(404, "not_found", "you have no label on this unit and family");
  await recomputeAfterLabel(row, storedValuesChangedBy(unit));
  return Response.json({ deleted: unit });
});
