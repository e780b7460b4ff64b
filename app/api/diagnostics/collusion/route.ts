import { collusion as collusionContract } from "@/lib/api/contracts/aggregates";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { collusion } from "@/lib/server/hacking/queries";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";


/** GET /api/diagnostics/collusion?project=&judge=&family=: verifier collusion per judge, family and policy_version. */
export const GET = endpoint(collusionContract, {
  // the query names the project whose read access is checked
  handle: async ({ request, query: q }) => {
    await authorize(request, "read", q.project);
    return collusion(q, await readableProjects(request));
  },
});
