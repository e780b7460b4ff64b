import { z } from "zod";
import { searchParamsObject } from "@/lib/api/filters";
import { decimalInt } from "@/lib/api/params";
import { parseQuery, route } from "@/lib/server/http";
import { authorizeRun } from "@/lib/server/judges/access";
import { runStatus } from "@/lib/server/judges/runs";
import { runUnits, UNIT_STATES } from "@/lib/server/judges/units";

export const dynamic = "force-dynamic";

const unitsQuery = z.strictObject({
  state: z.enum(UNIT_STATES).optional(),
  offset: decimalInt(0, 1_000_000_000).default(0),
  limit: decimalInt(1, 500).default(100),
});

/**
 * GET /api/judge-runs/{id}/units?state=&offset=&limit=: the run's units,
 * failed first, each with the judge's latest answer in this run (value,
 * reason; or the failure and the raw reply).
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { runId } = await authorizeRun(request, (await params).id);
  const query = parseQuery(unitsQuery, searchParamsObject(new URL(request.url).searchParams));
  const [run, page] = await Promise.all([runStatus(runId), runUnits(runId, query)]);
  return Response.json({ run, ...page });
});
