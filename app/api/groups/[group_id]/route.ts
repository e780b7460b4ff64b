import { z } from "zod";
import { filterText } from "@/lib/api/params";
import { readableProjects } from "@/lib/server/auth/access";
import { groupView } from "@/lib/server/decisions/group";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

const path = z.strictObject({ group_id: filterText });

/**
 * GET /api/groups/{group_id}: the rollouts of a GRPO group the caller may read,
 * each with E1, R_total and its GRPO advantage, where they part ways, and the
 * choices only the successful (or only the failed) rollouts made. 404 when the
 * caller may read none (an unknown group and an unreadable one alike).
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ group_id: string }> }) => {
  const { group_id } = parseQuery(path, { group_id: (await params).group_id });
  const readable = await readableProjects(request);
  return Response.json(await groupView(group_id, readable));
});
