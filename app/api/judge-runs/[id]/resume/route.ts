import { resumeInput, resumeJudgeRun } from "@/lib/api/contracts/judges";
import { endpoint } from "@/lib/server/endpoint";
import { parseJsonRequest } from "@/lib/server/http";
import { authorizeRun, ensureAppWorker } from "@/lib/server/judges/access";
import { resumeRun } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";


/** POST /api/judge-runs/{id}/resume: sends the run's unfinished units again (optionally with new budgets). */
export const POST = endpoint(resumeJudgeRun, {
  access: (request, { id }) => authorizeRun(request, id),
  // a body is optional, read only when it is JSON: without one the budgets stay as they were
  ownBody: true,
  handle: async ({ request, access: { runId } }) => {
    const body = (request.headers.get("content-type") ?? "").startsWith("application/json") ? await parseJsonRequest(request, resumeInput) : {};
    const run = await resumeRun(runId, body);
    ensureAppWorker();
    return { run };
  },
});
