import { z } from "zod";
import { BEST, METHODS } from "@/lib/blame";
import { searchParamsObject } from "@/lib/api/filters";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { blameOf } from "@/lib/server/blame/rank";
import { confirmedSuspects } from "@/lib/server/replay/confirmed";
import { parseQuery, route } from "@/lib/server/http";

export const dynamic = "force-dynamic";

// a judge's stored attributions are `judge:<judge name>:<mode>`
const query = z.strictObject({
  method: z.union([z.enum([BEST, ...METHODS.map((m) => m.name)]), z.string().regex(/^judge:.+:(all_at_once|binary_search|step_by_step)$/)]).default(BEST),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

/**
 * GET /api/traces/{id}/blame?method=&limit=&offset=: the trace's events and
 * agents ranked by blame (SPEC.md section 10), rank 1 the method's decisive
 * error; tied items share a rank; `limit` events from `offset` (the top
 * suspects first). `best` (the default) is the method with the best
 * cross-validated step accuracy on the labelled traces of the trace's project
 * (of its system in the project, when the project holds several). 202 while
 * a model is trained or a big trace ranked in the background. A 200 answer
 * carries `confirmed_by_replay`: the calls whose corrections turned the
 * failed run into a success (docs/replay.md "Confirmed by replay"), with
 * the events they produced.
 */
export const GET = route(async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  const q = parseQuery(query, searchParamsObject(new URL(request.url).searchParams));
  const { row, actor } = await authorizeTrace(request, id, "read");
  const trace = { id: row.id, traceId: row.traceId, groupId: row.groupId, projectId: row.projectId, project: row.project.name, system: row.system, events: row.eventCount };
  const answer = await blameOf(trace, q.method, { limit: q.limit, offset: q.offset }, `${actor.via}:${actor.userId}`);
  if (answer.status === 200) return Response.json({ ...answer.body, confirmed_by_replay: await confirmedSuspects(trace, new URL(request.url).origin) });
  return Response.json(answer.body, { status: answer.status, ...(answer.status === 202 && { headers: { "retry-after": String(answer.body.retry_after_s) } }) });
});
