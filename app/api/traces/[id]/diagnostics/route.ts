import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { traceDiagnostics } from "@/lib/server/hacking/queries";
import { route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/diagnostics: the hacking detectors of one trace (docs/metrics.md, "Hacking diagnostics"). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  await authorizeTrace(request, id, "read");
  return Response.json(await traceDiagnostics(id));
});
