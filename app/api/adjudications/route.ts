import { adjudicationInput } from "@/lib/api/queues";
import { authorize } from "@/lib/server/auth/access";
import { parseJsonRequest, route } from "@/lib/server/http";
import { adjudicate } from "@/lib/server/queues/adjudicate";
import { findTraceRow } from "@/lib/server/queries/traces";

export const dynamic = "force-dynamic";

/** POST /api/adjudications `{trace_id, event_id, family, value}` (project admin): the final value of a unit. */
export const POST = route(async (request: Request) => {
  const input = await parseJsonRequest(request, adjudicationInput);
  const trace = await findTraceRow(input.trace_id);
  const actor = await authorize(request, "admin", trace.project.name);
  return Response.json(await adjudicate(actor, input), { status: 201 });
});
