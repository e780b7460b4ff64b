import { adjudicationInput } from "@/lib/api/queues";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseJsonRequest, route } from "@/lib/server/http";
import { adjudicate } from "@/lib/server/queues/adjudicate";

export const dynamic = "force-dynamic";

/** POST /api/adjudications `{trace_id, event_id, family, value}` (project admin): the final value of a unit. */
export const POST = route(async (request: Request) => {
  const input = await parseJsonRequest(request, adjudicationInput);
  const { actor } = await authorizeTrace(request, input.trace_id, "admin");
  return Response.json(await adjudicate(actor, input), { status: 201 });
});
