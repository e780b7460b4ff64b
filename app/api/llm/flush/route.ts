import { gatewayFlushInput, type GatewayFlushOutput } from "@/lib/api/gateway";
import { authorizeGateway } from "@/lib/server/gateway/auth";
import { recorderSettled } from "@/lib/server/gateway/recorder";
import { flushRuns } from "@/lib/server/gateway/runs";
import { parseJsonRequest, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/**
 * POST /api/llm/flush `{project?, run_key?}`: the run (or every receiving
 * run of the project) becomes its trace now instead of when idle; a failed
 * run named by its key is tried again. Same access as the model calls.
 */
export const POST = route(async (request: Request) => {
  const input = await parseJsonRequest(request, gatewayFlushInput);
  await authorizeGateway(request, input.project);
  // this process's calls still queued belong in the trace
  await recorderSettled();
  const runs = await flushRuns(input.project, input.run_key);
  const output: GatewayFlushOutput = { runs: runs.map(({ project: _project, ...run }) => run) };
  return Response.json(output);
});
