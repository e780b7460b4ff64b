import { createIntervention as createContract, listInterventions } from "@/lib/api/contracts/replay";
import { traceIdOfRun } from "@/lib/gateway/request";
import { authorizeReplay, authorizeTrace } from "@/lib/server/auth/trace-access";
import { endpoint, reply } from "@/lib/server/endpoint";
import { checkRunner, scheduleRuns } from "@/lib/server/replay/runner";
import { confirmedSuspects } from "@/lib/server/replay/confirmed";
import { interventionsOfTrace } from "@/lib/server/replay/list";
import { createIntervention, runBaseUrl } from "@/lib/server/replay/runs";

export const dynamic = "force-dynamic";

/**
 * POST /api/traces/{id}/interventions `{call_id, edit, intent?, samples?, params?}`
 * (SPEC.md section 11, docs/replay.md): an intervention and one fork run key per
 * sample; the program is pointed at each `base_url`. Needs ingest rights in the
 * trace's project (forks become traces there and spend its upstream).
 */
export const POST = endpoint(createContract, {
  access: (request, { id }) => authorizeReplay(request, id),
  handle: async ({ request, body: input, access: { row, actor } }) => {
    if (input.runner !== undefined) checkRunner(input.runner, row.project.name);
    const created = await createIntervention({ id: row.id, projectId: row.projectId }, input, actor.name || null);
    if (input.runner !== undefined) await scheduleRuns(row.project.name, input.runner, created.run_keys);
    const origin = new URL(request.url).origin;
    return reply({
      intervention: { id: created.id, call_id: input.call_id, call_index: created.call_index, edit: input.edit, intent: input.intent, samples: input.samples, params: input.params ?? null, runner: input.runner ?? null },
      runs: created.run_keys.map((key, i) => ({ run_key: key, sample: i + 1, base_url: runBaseUrl(origin, row.project.name, key), trace_id: traceIdOfRun(key) })),
    }, { status: 201 });
  },
});

/** GET /api/traces/{id}/interventions: the trace's interventions and unchanged replays, each run with its state; `confirmed_by_replay`: the calls whose corrections turned the failed run into a success (as in GET …/blame). */
export const GET = endpoint(listInterventions, {
  access: (request, { id }) => authorizeTrace(request, id, "read"),
  handle: async ({ request, access: { row } }) => {
    const { interventions, replays } = await interventionsOfTrace(row.id, row.project.name, new URL(request.url).origin);
    const shown = ({ trace_db_id: _id, ...run }: (typeof replays)[number]) => run;
    const confirmed = await confirmedSuspects({ id: row.id, traceId: row.traceId, project: row.project.name }, new URL(request.url).origin);
    return { interventions: interventions.map((i) => ({ ...i, runs: i.runs.map(shown) })), replays: replays.map(shown), confirmed_by_replay: confirmed };
  },
});
