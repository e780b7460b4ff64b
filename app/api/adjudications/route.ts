import { adjudicate as adjudicateContract } from "@/lib/api/contracts/queues";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint, reply } from "@/lib/server/endpoint";
import { adjudicate } from "@/lib/server/queues/adjudicate";

export const dynamic = "force-dynamic";

/** POST /api/adjudications `{trace_id, event_id, family, value}` (project admin): the final value of a unit (the body names the trace, so it is read first). */
export const POST = endpoint(adjudicateContract, {
  handle: async ({ request, body: input }) => {
    const { actor } = await authorizeTrace(request, input.trace_id, "admin");
    return reply(await adjudicate(actor, input), { status: 201 });
  },
});
