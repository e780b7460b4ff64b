import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { route } from "@/lib/server/http";
import { traceMetrics } from "@/lib/server/queries/metrics";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/metrics: E1-E4 and stop diagnostics (SPEC.md section 4). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "read");
  return Response.json(await traceMetrics(id));
});
