import { route } from "@/lib/server/http";
import { authorizeRun } from "@/lib/server/judges/access";
import { runStatus } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";

/** GET /api/judge-runs/{id}: progress (total, done, failed, pending, tokens, state). */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { runId } = await authorizeRun(request, (await params).id);
  return Response.json({ run: await runStatus(runId) });
});
