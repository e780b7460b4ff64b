import { decisiveErrorInput } from "@/lib/api/decisive-errors";
import { authorizeTraceRef } from "@/lib/server/auth/trace-access";
import { scheduleBlameRefresh } from "@/lib/server/blame/jobs";
import { parseJsonRequest, route } from "@/lib/server/http";
import { adjudicateDecisiveError } from "@/lib/server/queries/decisive-errors";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** PUT /api/traces/{id}/decisive-error/adjudication: `{event_id, agent?, reason?}`, a project admin's final decisive error; answers the trace's decisive errors. */
export const PUT = route(async (request: Request, { params }: Context) => {
  const { id } = await params;
  const { row, actor } = await authorizeTraceRef(request, id, "admin");
  const input = await parseJsonRequest(request, decisiveErrorInput);
  const answer = await adjudicateDecisiveError(row, actor, input);
  await scheduleBlameRefresh({ project: row.project.name });
  return Response.json(answer);
});
