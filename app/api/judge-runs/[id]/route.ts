import { getJudgeRun } from "@/lib/api/contracts/judges";
import { endpoint } from "@/lib/server/endpoint";
import { authorizeRun } from "@/lib/server/judges/access";
import { runStatus } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";

/** GET /api/judge-runs/{id}: progress (total, done, failed, pending, tokens, state). */
export const GET = endpoint(getJudgeRun, {
  access: (request, { id }) => authorizeRun(request, id),
  handle: async ({ access: { runId } }) => ({ run: await runStatus(runId) }),
});
