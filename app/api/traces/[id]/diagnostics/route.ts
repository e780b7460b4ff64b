import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { traceDiagnostics } from "@/lib/server/hacking/queries";
import { traceDiagnostics as diagnosticsContract } from "@/lib/api/contracts/analysis";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/diagnostics: the hacking detectors of one trace (docs/metrics.md, "Hacking diagnostics"). */
export const GET = endpoint(diagnosticsContract, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: ({ params: { id } }) => traceDiagnostics(id),
});
