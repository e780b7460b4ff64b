import { groupView as groupContract } from "@/lib/api/contracts/analysis";
import { readableProjects } from "@/lib/server/auth/access";
import { groupView } from "@/lib/server/decisions/group";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * GET /api/groups/{group_id}: the rollouts of a GRPO group the caller may read,
 * each with E1, R_total and its GRPO advantage, where they part ways, and the
 * choices only the successful (or only the failed) rollouts made. 404 when the
 * caller may read none (an unknown group and an unreadable one alike).
 */
export const GET = endpoint(groupContract, {
  access: (request) => readableProjects(request),
  handle: ({ params: { group_id }, access: readable }) => groupView(group_id, readable),
});
