import { agreementQuery, judgeAgreement } from "@/lib/api/contracts/judges";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { endpoint } from "@/lib/server/endpoint";
import { parseQuery } from "@/lib/server/http";
import { agreement } from "@/lib/server/judges/labels";

export const dynamic = "force-dynamic";


/** GET /api/judges/agreement: per judge and family (and system or policy_version), alpha with people, mean signed difference and scatter points. */
export const GET = endpoint(judgeAgreement, {
  // the parameters as sent (an empty one included), then read access to the project they name
  handle: async ({ request }) => {
    const q = parseQuery(agreementQuery, Object.fromEntries(new URL(request.url).searchParams));
    await authorize(request, "read", q.project);
    return { agreement: await agreement(q, await readableProjects(request)) };
  },
});
