import { JUDGE_UNIT_STATES, judgeRunUnits } from "@/lib/api/contracts/judges";
import { endpoint } from "@/lib/server/endpoint";
import { authorizeRun } from "@/lib/server/judges/access";
import { runStatus } from "@/lib/server/judges/runs";
import { runUnits, UNIT_STATES } from "@/lib/server/judges/units";

export const dynamic = "force-dynamic";

// the contract's unit states are the store's
JUDGE_UNIT_STATES satisfies typeof UNIT_STATES;
UNIT_STATES satisfies typeof JUDGE_UNIT_STATES;

/**
 * GET /api/judge-runs/{id}/units?state=&offset=&limit=: the run's units,
 * failed first, each with the judge's latest answer in this run (value,
 * reason; or the failure and the raw reply).
 */
export const GET = endpoint(judgeRunUnits, {
  access: (request, { id }) => authorizeRun(request, id),
  handle: async ({ query, access: { runId } }) => {
    const [run, page] = await Promise.all([runStatus(runId), runUnits(runId, query)]);
    return { run, ...page };
  },
});
