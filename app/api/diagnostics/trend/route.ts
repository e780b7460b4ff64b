import { flagTrend as trendContract } from "@/lib/api/contracts/aggregates";
import { readableProjects } from "@/lib/server/auth/access";
import { flagTrend } from "@/lib/server/hacking/queries";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";


/** GET /api/diagnostics/trend?project=&system=&task_id=&group_id=&topology=: flag rates per detector by policy_version. */
export const GET = endpoint(trendContract, {
  // the query is checked before access
  handle: async ({ request, query }) => {
    const readable = await readableProjects(request);
    return flagTrend({ ...query, ...(readable !== null && { readable }) });
  },
});
