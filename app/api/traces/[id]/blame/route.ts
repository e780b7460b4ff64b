import { traceBlame } from "@/lib/api/contracts/analysis";
import { authorizeTrace } from "@/lib/server/auth/trace-access";
import { blameOf } from "@/lib/server/blame/rank";
import { endpoint, reply } from "@/lib/server/endpoint";
import { confirmedSuspects } from "@/lib/server/replay/confirmed";

export const dynamic = "force-dynamic";

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
export const GET = endpoint(traceBlame, {
  // the query is checked before access
  handle: async ({ request, params: { id }, query: q }) => {
    const { row, actor } = await authorizeTrace(request, id, "read");
    const trace = { id: row.id, traceId: row.traceId, groupId: row.groupId, projectId: row.projectId, project: row.project.name, system: row.system, events: row.eventCount };
    const answer = await blameOf(trace, q.method, { limit: q.limit, offset: q.offset }, `${actor.via}:${actor.userId}`);
    if (answer.status === 200) return { ...answer.body, confirmed_by_replay: await confirmedSuspects(trace, new URL(request.url).origin) };
    return reply(answer.body, { status: answer.status, ...(answer.status === 202 && { headers: { "retry-after": String(answer.body.retry_after_s) } }) });
  },
});
