import { judgeAgreement } from "@/lib/api/contracts/judges";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { agreement } from "@/lib/server/judges/labels";

export const dynamic = "force-dynamic";

/** GET /api/judges/agreement: per judge and family (and system or policy_version), alpha with people, mean signed difference and scatter points. */
export const GET = endpoint(judgeAgreement, {
  // the parameters, then read access to the project they name
  queryFirst: true,
  access: async (request, _params, query) => {
    await authorize(request, "read", query.project);
  },
  handle: async ({ request, query }) => ({ agreement: await agreement(query, await readableProjects(request)) }),
});
