import { traceEffects as effectsContract } from "@/lib/api/contracts/replay";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint } from "@/lib/server/endpoint";
import { ApiError } from "@/lib/server/errors";
import { traceEffects } from "@/lib/server/replay/effects";

export const dynamic = "force-dynamic";

/** GET /api/traces/{id}/effects?preset=: measured effects of the trace's interventions and each credit method's agreement (SPEC.md section 11). */
export const GET = endpoint(effectsContract, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: async ({ request, access: { row } }) => {
    const url = new URL(request.url);
    // read as sent (an empty `preset=` is the empty name, refused as unknown, not the default)
    const preset = url.searchParams.get("preset") ?? "uniform";
    if (preset.length > 200) throw new ApiError(400, "invalid_parameter", "preset: at most 200 characters", [{ path: "preset", message: "at most 200 characters" }]);
    return traceEffects({ id: row.id, traceId: row.traceId, project: row.project.name }, preset, url.origin);
  },
});
