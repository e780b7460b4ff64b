import { adjudicateDecisiveError as adjudicateContract } from "@/lib/api/contracts/decisive-errors";
import { authorizeTraceRef } from "@/lib/server/auth/trace-access";
import { scheduleBlameRefresh } from "@/lib/server/blame/jobs";
import { endpoint } from "@/lib/server/endpoint";
import { adjudicateDecisiveError } from "@/lib/server/queries/decisive-errors";

export const dynamic = "force-dynamic";

/** PUT /api/traces/{id}/decisive-error/adjudication: `{event_id, agent?, reason?}`, a project admin's final decisive error; answers the trace's decisive errors. */
export const PUT = endpoint(adjudicateContract, {
  access: (request, { id }) => authorizeTraceRef(request, id, "admin"),
  handle: async ({ body, access: { row, actor } }) => {
    const answer = await adjudicateDecisiveError(row, actor, body);
    await scheduleBlameRefresh({ project: row.project.name });
    return answer;
  },
});
