import { decimalNumber } from "@/lib/api/params";
import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { parseQuery, route } from "@/lib/server/http";
import { authorizeQueue } from "@/lib/server/queues/route-helpers";
import { decisiveDisagreements, disagreements } from "@/lib/server/queues/stats";

export const dynamic = "force-dynamic";

const query = z.object({ threshold: decimalNumber(0, 2).default(0.5) });

/** GET /api/queues/{id}/disagreements?threshold=0.5 (admin): units whose values spread more than the threshold, and traces whose people name different decisive errors. */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { queue } = await authorizeQueue(request, (await params).id, "admin");
  const { threshold } = parseQuery(query, searchParamsObject(new URL(request.url).searchParams));
  const [units, decisive] = await Promise.all([disagreements(queue.id, threshold), decisiveDisagreements(queue.id)]);
  return Response.json({ threshold, units, decisive_errors: decisive });
});
