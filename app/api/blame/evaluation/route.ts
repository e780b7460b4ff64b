import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { filterText } from "@/lib/api/params";
import { readableProjects } from "@/lib/server/auth/access";
import { blameEvaluation } from "@/lib/server/blame/evaluation";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

const filter = z.strictObject({ project: filterText.optional(), system: filterText.optional() });

/**
 * GET /api/blame/evaluation?project=&system=: every attribution method scored
 * on the traces of the filter that have a decisive error (SPEC.md section 10):
 * agent and step accuracy (top-1, top-3), MRR, each with a Wilson interval,
 * overall and by system; learned methods under 5-fold cross-validation by trace.
 */
export const GET = route(async (request: Request) => {
  const q = parseQuery(filter, searchParamsObject(new URL(request.url).searchParams));
  const readable = await readableProjects(request);
  return Response.json(await blameEvaluation({ ...q, ...(readable !== null && { readable }) }));
});
