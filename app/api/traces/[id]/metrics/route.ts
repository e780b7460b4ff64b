import { traceMetrics as metricsContract } from "@/lib/api/contracts/traces";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint } from "@/lib/server/endpoint";
import { traceMetrics } from "@/lib/server/queries/metrics";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/metrics: E1-E4 and stop diagnostics (SPEC.md section 4). */
export const GET = endpoint(metricsContract, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: ({ params: { id } }) => traceMetrics(id),
});
