import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { ApiError } from "@/lib/server/errors";
import { route } from "@/lib/server/http";
import { traceEffects } from "@/lib/server/replay/effects";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/effects?preset=: measured effects of the trace's interventions and each credit method's agreement (SPEC.md section 11). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { row } = await authorizeTrace(request, id, "read");
  const url = new URL(request.url);
  const preset = url.searchParams.get("preset") ?? "uniform";
  if (preset.length > 200) throw new ApiError(400, "invalid_parameter", "preset: at most 200 characters", [{ path: "preset", message: "at most 200 characters" }]);
  return Response.json(await traceEffects({ id: row.id, traceId: row.traceId, project: row.project.name }, preset, url.origin));
});
