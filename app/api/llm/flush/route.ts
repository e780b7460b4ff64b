import { flushGateway } from "@/lib/api/contracts/gateway";
import type { GatewayFlushOutput } from "@/lib/api/gateway";
import { authorizeGateway } from "@/lib/server/gateway/auth";
import { recorderSettled } from "@/lib/server/gateway/recorder";
import { flushRuns } from "@/lib/server/gateway/runs";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * POST /api/llm/flush `{project?, run_key?}`: the run (or every receiving
 * run of the project) becomes its trace now instead of when idle; a failed
 * run named by its key is tried again. Same access as the model calls.
 */
export const POST = endpoint(flushGateway, {
  // the body names the project whose gateway rights are checked
  handle: async ({ request, body: input }) => {
    await authorizeGateway(request, input.project);
    // this process's calls still queued belong in the trace
    await recorderSettled();
    const runs = await flushRuns(input.project, input.run_key);
    const output: GatewayFlushOutput = { runs: runs.map(({ project: _project, ...run }) => run) };
    return output;
  },
});
