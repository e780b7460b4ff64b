import { createReplays as createContract } from "@/lib/api/contracts/replay";
import { traceIdOfRun } from "@/lib/gateway/request";
import { authorizeReplay } from "@/lib/server/auth/trace-access";
import { endpoint, reply } from "@/lib/server/endpoint";
import { checkRunner, scheduleRuns } from "@/lib/server/replay/runner";
import { createReplays, runBaseUrl } from "@/lib/server/replay/runs";

export const dynamic = "force-dynamic";

/**
 * POST /api/traces/{id}/replays `{samples?}` (docs/replay.md): run keys for
 * unchanged replays of the trace, the baseline of its measured effects.
 */
export const POST = endpoint(createContract, {
  access: (request, { id }) => authorizeReplay(request, id),
  handle: async ({ request, body: input, access: { row } }) => {
    if (input.runner !== undefined) checkRunner(input.runner, row.project.name);
    const keys = await createReplays({ id: row.id, projectId: row.projectId }, input.samples, input.runner ?? null);
    if (input.runner !== undefined) await scheduleRuns(row.project.name, input.runner, keys);
    const origin = new URL(request.url).origin;
    return reply({ runs: keys.map((key, i) => ({ run_key: key, sample: i + 1, base_url: runBaseUrl(origin, row.project.name, key), trace_id: traceIdOfRun(key) })) }, { status: 201 });
  },
});
