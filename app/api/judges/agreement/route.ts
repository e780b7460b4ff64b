import { z } from "zod";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";
import { FAMILIES } from "@/lib/trace/types";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { parseQuery, route } from "@/lib/server/http";
import { agreement } from "@/lib/server/judges/labels";

export const dynamic = "force-dynamic";

const query = z.strictObject({
  project: z.string().max(MAX_ID_LENGTH).optional(),
  judge: z.string().max(100).optional(),
  family: z.enum(FAMILIES).optional(),
  by: z.enum(["judge", "system", "policy_version"]).default("judge"),
});

/** GET /api/judges/agreement: per judge and family (and system or policy_version), alpha with people, mean signed difference and scatter points. */
export const GET = route(async (request: Request) => {
  const q = parseQuery(query, Object.fromEntries(new URL(request.url).searchParams));
  await authorize(request, "read", q.project);
  return Response.json({ agreement: await agreement(q, await readableProjects(request)) });
});
