import { judgeAttributions } from "@/lib/api/contracts/aggregates";
import { SPEC_VERSION } from "@/lib/metrics";
import { authorizeInProject } from "@/lib/server/auth/access";
import { attributeTraces } from "@/lib/server/blame/judge";
import { prisma } from "@/lib/server/db/client";
import { ApiError, notFound } from "@/lib/server/errors";
import { endpoint } from "@/lib/server/endpoint";

export const dynamic = "force-dynamic";

/**
 * POST /api/blame/judge `{judge_id, mode, trace_ids}`: the judge names the
 * decisive error of each trace (all at once, or by bisection), stored and
 * then scored like every attribution method (`judge:<name>:<mode>` in
 * GET /api/blame/evaluation and GET /api/traces/{id}/blame). Admins of the
 * judge's project, on traces of that project; answers when every trace is done.
 */
export const POST = endpoint(judgeAttributions, {
  // the body names the judge, whose project decides access
  handle: async ({ request, body: input }) => {
    const judge = await prisma().judge.findUnique({ where: { id: input.judge_id }, include: { project: true } });
    await authorizeInProject(request, judge?.project.name ?? null, "admin", () => notFound(`judge ${input.judge_id}`));
    const traces = await prisma().trace.findMany({ where: { traceId: { in: input.trace_ids }, projectId: judge!.projectId }, select: { id: true, traceId: true, groupId: true } });
    const found = new Set(traces.map((t) => t.traceId));
    const missing = input.trace_ids.flatMap((t, i) => (found.has(t) ? [] : [{ path: `$.trace_ids[${i}]`, message: `no trace "${t.slice(0, 200)}" in project ${judge!.project.name}` }]));
    if (missing.length > 0) throw new ApiError(400, "invalid_input", "unknown traces", missing);
    const outcomes = await attributeTraces(judge!, traces, input.mode);
    return { version: SPEC_VERSION, judge: judge!.name, mode: input.mode, outcomes };
  },
});
