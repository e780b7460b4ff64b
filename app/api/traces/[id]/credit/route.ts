import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseCreditQuery, traceCredit } from "@/lib/server/compute/credit";
import { traceCredit as creditContract } from "@/lib/api/contracts/analysis";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/credit?method=&preset=&normalize=&w.<family>=: credit per event (SPEC.md section 3). */
export const GET = endpoint(creditContract, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: ({ request, params: { id } }) => traceCredit(id, parseCreditQuery(new URL(request.url).searchParams)),
});
