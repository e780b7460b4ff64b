import { queueDisagreements } from "@/lib/api/contracts/queues";
import { endpoint } from "@/lib/server/endpoint";
import { authorizeQueue } from "@/lib/server/queues/route-helpers";
import { decisiveDisagreements, disagreements } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

/** GET /api/queues/{id}/disagreements?threshold=0.5 (admin): units whose values spread more than the threshold, and traces whose people name different decisive errors. */
export const GET = endpoint(queueDisagreements, {
  access: (request, { id }) => authorizeQueue(request, id, "admin"),
  handle: async ({ query: { threshold }, access: { queue } }) => {
    const [units, decisive] = await Promise.all([disagreements(queue.id, threshold), decisiveDisagreements(queue.id)]);
    return { threshold, units, decisive_errors: decisive };
  },
});
