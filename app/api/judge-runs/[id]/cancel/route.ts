import { cancelJudgeRun } from "@/lib/api/contracts/judges";
import { endpoint } from "@/lib/server/endpoint";
import { authorizeRun } from "@/lib/server/judges/access";
import { cancelRun } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";

/** POST /api/judge-runs/{id}/cancel: no new unit starts; units in flight finish; resume continues. */
export const POST = endpoint(cancelJudgeRun, {
  access: (request, { id }) => authorizeRun(request, id),
  handle: async ({ access: { runId } }) => ({ run: await cancelRun(runId) }),
});
