import { blameEvaluation as evaluationContract, cancelBlameEvaluation } from "@/lib/api/contracts/aggregates";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { blameEvaluation, cancelCurrentScoring } from "@/lib/server/blame/evaluation";
import { endpoint, reply } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * GET /api/blame/evaluation?project=&system=: every attribution method scored
 * on the traces of the filter that have a decisive error (SPEC.md section 10):
 * agent and step accuracy (top-1, top-3), MRR, each with a Wilson interval,
 * overall and by system; learned methods under 5-fold cross-validation by trace.
 * Never waits for the scoring: 200 with the scores (and `scoring`) once the
 * labelled set as it is now is scored, else 202 with `scoring` (state,
 * progress, estimate) and `previous`, the last scores of the filter.
 */
export const GET = endpoint(evaluationContract, {
  // the query is checked before access
  handle: async ({ request, query: q }) => {
    const readable = await readableProjects(request);
    const { scoring, result, fresh } = await blameEvaluation({ ...q, ...(readable !== null && { readable }) });
    if (fresh && result) return { ...result, scoring };
    return reply({ scoring, previous: result }, { status: 202, headers: { "retry-after": String(scoring.state === "failed" ? 60 : 5) } });
  },
});

/**
 * DELETE /api/blame/evaluation?project=&system= (project admins): stops the
 * scoring of the project's labelled runs as they are now (its child killed
 * within a second); `{"cancelled": false}` when none was queued or running.
 * Asking for the scores again queues it anew.
 */
export const DELETE = endpoint(cancelBlameEvaluation, {
  // the query names the project whose admin may cancel
  handle: async ({ request, query: q }) => {
    const actor = await authorize(request, "admin", q.project);
    return { cancelled: await cancelCurrentScoring(q, `cancelled by ${actor.name}`) };
  },
});
