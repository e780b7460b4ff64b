import { runInput } from "@/lib/judges/config";
import { parseJsonRequest, route } from "@/lib/server/http";
import { authorizeJudge, ensureAppWorker } from "@/lib/server/judges/access";
import { createRun, listRuns } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";
type Ctx = { params: Promise<{ id: string }> };

/** GET /api/judges/{id}/runs: the judge's last 50 runs with progress. */
export const GET = route(async (request: Request, { params }: Ctx) => {
  const { judgeId } = await authorizeJudge(request, (await params).id);
  return Response.json({ runs: await listRuns(judgeId) });
});

/** POST /api/judges/{id}/runs: a run over a filter of the project's traces or a queue; 201 with its status. */
export const POST = route(async (request: Request, { params }: Ctx) => {
  const { judgeId } = await authorizeJudge(request, (await params).id);
  const input = await parseJsonRequest(request, runInput);
  const run = await createRun(judgeId, input);
  ensureAppWorker();
  return Response.json({ run }, { status: 201 });
});
