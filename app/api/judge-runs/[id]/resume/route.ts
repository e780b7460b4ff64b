import { z } from "zod";
import { parseJsonRequest, route } from "@/lib/server/http";
import { authorizeRun, ensureAppWorker } from "@/lib/server/judges/access";
import { resumeRun } from "@/lib/server/judges/runs";

export const dynamic = "force-dynamic";

const resumeInput = z.strictObject({
  token_budget: z.number().int().positive().nullable().optional(),
  time_budget_seconds: z.number().int().positive().nullable().optional(),
});

/** POST /api/judge-runs/{id}/resume: sends the run's unfinished units again (optionally with new budgets). */
export const POST = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { runId } = await authorizeRun(request, (await params).id);
  // a body is optional: without one the budgets stay as they were
  const body = (request.headers.get("content-type") ?? "").startsWith("application/json") ? await parseJsonRequest(request, resumeInput) : {};
  const run = await resumeRun(runId, body);
  ensureAppWorker();
  return Response.json({ run });
});
