import { listJudgeRuns, startJudgeRun } from "@/lib/api/contracts/judges";
import { endpoint, reply } from "@/lib/server/endpoint";
import { authorizeJudge, ensureAppWorker } from "@/lib/server/judges/access";
import { createRun, listRuns } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";
/** GET /api/judges/{id}/runs: the judge's last 50 runs with progress. */
export const GET = endpoint(listJudgeRuns, {
  access: (request, { id }) => authorizeJudge(request, id),
  handle: async ({ access: { judgeId } }) => ({ runs: await listRuns(judgeId) }),
});

/** POST /api/judges/{id}/runs: a run over a filter of the project's traces or a queue; 201 with its status. */
export const POST = endpoint(startJudgeRun, {
  access: (request, { id }) => authorizeJudge(request, id),
  handle: async ({ body: input, access: { judgeId } }) => {
    const run = await createRun(judgeId, input);
    ensureAppWorker();
    return reply({ run }, { status: 201 });
  },
});
