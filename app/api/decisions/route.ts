import { decisions } from "@/lib/api/contracts/aggregates";
import { readableProjects } from "@/lib/server/auth/access";
import { decisionAnalytics } from "@/lib/server/decisions/analytics";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * GET /api/decisions?project=&system=&task_id=&group_id=&topology=&policy_version=&from=&to=:
 * decision analytics (O1-O5: taken or not, by bucket, by checkpoint, within-group difference)
 * over the traces the caller may read.
 */
export const GET = endpoint(decisions, {
  // the query is checked before access
  handle: async ({ request, query }) => decisionAnalytics(query, await readableProjects(request)),
});
