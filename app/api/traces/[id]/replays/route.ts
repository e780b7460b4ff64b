import { replayInput } from "@/lib/api/replay";
import { traceIdOfRun } from "@/lib/gateway/request";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { parseJsonRequest, route } from "@/lib/server/http";
import { checkRunner, scheduleRuns } from "@/lib/server/replay/runner";
import { createReplays, runBaseUrl } from "@/lib/server/replay/runs";

export const dynamic = "force-dynamic";

/**
 * POST /api/traces/{id}/replays `{samples?}` (docs/replay.md): run keys for
 * unchanged replays of the trace, the baseline of its measured effects.
 */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const { row } = await authorizeTrace(request, id, "read");
  // a replay serves the trace's recorded replies back: it needs read access as well as ingest (forks are stored and spend the upstream)
  await authorizeTrace(request, id, "ingest");
  const input = await parseJsonRequest(request, replayInput);
  if (input.runner !== undefined) checkRunner(input.runner, row.project.name);
  const keys = await createReplays({ id: row.id, projectId: row.projectId }, input.samples, input.runner ?? null);
  if (input.runner !== undefined) await scheduleRuns(row.project.name, input.runner, keys);
  const origin = new URL(request.url).origin;
  return Response.json({ runs: keys.map((key, i) => ({ run_key: key, sample: i + 1, base_url: runBaseUrl(origin, row.project.name, key), trace_id: traceIdOfRun(key) })) }, { status: 201 });
});
