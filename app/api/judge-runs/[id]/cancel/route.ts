import { route } from "@/lib/server/http";
import { authorizeRun } from "@/lib/server/judges/access";
import { cancelRun } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";

/** POST /api/judge-runs/{id}/cancel: no new unit starts; units in flight finish; resume continues. */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { runId } = await authorizeRun(request, (await params).id);
  return Response.json({ run: await cancelRun(runId) });
});
