import { labelChangesStoredMetrics } from "@/lib/annotate/recompute";
import { annotationInput } from "@/lib/api/annotations";
import { authorize } from "@/lib/server/auth/access";
import { recomputeMetrics } from "@/lib/server/compute/persist";
import { parseJsonRequest, route } from "@/lib/server/http";
import { listAnnotations, saveAnnotation } from "@/lib/server/queries/annotations";
import { findTraceRow } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/traces/{id}/annotations: current values of every annotator (`?mine=1`: only the caller's). */
export const GET = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const row = await findTraceRow(id);
  const actor = await authorize(request, "read", row.project.name);
  const mine = new URL(request.url).searchParams.get("mine") === "1";
  return Response.json({ annotations: await listAnnotations(row.traceId, mine ? actor.userId : undefined) });
});

/**
 * POST /api/traces/{id}/annotations: `{event_id?, family, value, comment?}`.
 * Credit is computed on read, so only a trace-level task_success label
 * (E1 and the stop verdict) recomputes the stored metrics; the
 * `Server-Timing` header says how long that took (bench:annotate reads it).
 */
export const POST = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const row = await findTraceRow(id);
  const actor = await authorize(request, "annotate", row.project.name);
  const input = await parseJsonRequest(request, annotationInput);
  const annotation = await saveAnnotation(row.traceId, row.id, actor, input);
  const started = performance.now();
  if (labelChangesStoredMetrics(input)) await recomputeMetrics(row.id);
  const recompute = performance.now() - started;
  return Response.json(annotation, { status: 201, headers: { "server-timing": `recompute;dur=${recompute.toFixed(2)}` } });
});
