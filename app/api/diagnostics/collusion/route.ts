import { z } from "zod";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";
import { searchParamsObject } from "@/lib/api/filters";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { collusion } from "@/lib/server/hacking/queries";
import { parseQuery, route } from "@/lib/server/http";
import { FAMILIES } from "@/lib/trace/types";

export const dynamic = "force-dynamic";

const query = z.strictObject({
  project: z.string().max(MAX_ID_LENGTH).optional(),
  judge: z.string().max(100).optional(),
  family: z.enum(FAMILIES).optional(),
});

/** GET /api/diagnostics/collusion?project=&judge=&family=: verifier collusion per judge, family and policy_version. */
export const GET = route(async (request: Request) => {
  const q = parseQuery(query, searchParamsObject(new URL(request.url).searchParams));
  await authorize(request, "read", q.project);
  return Response.json(await collusion(q, await readableProjects(request)));
});
