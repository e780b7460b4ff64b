import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { filterText } from "@/lib/api/params";
import { authorize, readableProjects } from "@/lib/server/auth/access";
import { blameEvaluation, cancelCurrentScoring } from "@/lib/server/blame/evaluation";
import { parseQuery, route } from "@/lib/server/http";

const cancelFilter = z.strictObject({ project: filterText, system: filterText.optional() });

export const dynamic = "force-dynamic";

const filter = z.strictObject({ project: filterText.optional(), system: filterText.optional() });

/**
 * GET /api/blame/evaluation?project=&system=: every attribution method scored
 * on the traces of the filter that have a decisive error (SPEC.md section 10):
 * agent and step accuracy (top-1, top-3), MRR, each with a Wilson interval,
 * overall and by system; learned methods under 5-fold cross-validation by trace.
 * Never waits for the scoring: 200 with the scores (and `scoring`) once the
 * labelled set as it is now is scored, else 202 with `scoring` (state,
 * progress, estimate) and `previous`, the last scores of the filter.
 */
export const GET = route(async (request: Request) => {
  const q = parseQuery(filter, searchParamsObject(new URL(request.url).searchParams));
  const readable = await readableProjects(request);
  const { scoring, result, fresh } = await blameEvaluation({ ...q, ...(readable !== null && { readable }) });
  if (fresh) return Response.json({ ...result, scoring });
  return Response.json({ scoring, previous: result }, { status: 202, headers: { "retry-after": String(scoring.state === "failed" ? 60 : 5) } });
});

/**
 * DELETE /api/blame/evaluation?project=&system= (project admins): stops the
 * scoring of the project's labelled runs as they are now (its child killed
 * within a second); `{"cancelled": false}` when none was queued or running.
 * Asking for the scores again queues it anew.
 */
export const DELETE = route(async (request: Request) => {
  const q = parseQuery(cancelFilter, searchParamsObject(new URL(request.url).searchParams));
  const actor = await authorize(request, "admin", q.project);
  return Response.json({ cancelled: await cancelCurrentScoring(q, `cancelled by ${actor.name}`) });
});
