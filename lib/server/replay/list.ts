import "server-only";
import type { Divergence, Origin } from "@/lib/replay/plan";
import { z } from "zod";
import { interventionEdit, interventionParams, runBaseUrl, runState, type StoredEdit } from "./runs";
import { storedOrNull } from "../db/stored";
import type { ForkParams } from "@/lib/replay/edit";
import { pool } from "../db/client";
import { traceIdOfRun } from "@/lib/gateway/request";
import type { RUN_STATES } from "@/lib/api/replay";
import { pushTo } from "@/lib/util/group";

export interface RunView {
  run_key: string;
  sample: number;
  base_url: string;
  trace_id: string;
  state: (typeof RUN_STATES)[number];
  served: number;
  forwarded: number;
  divergence: Divergence | null;
  origins: Origin[];
  /** the registered runner and how its program ran (null without one); output only in the run's detail */
  runner: { name: string; state: string | null; exit: number | null; stdout: string; stderr: string; error: string | null } | null;
  /** the fork's trace row id when stored (effects) */
  trace_db_id: number | null;
}

export interface InterventionView {
  id: number;
  call_id: string;
  call_index: number;
  edit: StoredEdit["asked"];
  intent: string;
  samples: number;
  params: ForkParams | null;
  created_by: string | null;
  created_at: string;
  runs: RunView[];
}

interface Row {
  run_key: string; sample: number; served: number; forwarded: number; state: unknown; intervention_id: number | null;
  run_status: string | null; trace_db_id: number | null;
  runner: string | null; runner_state: string | null; runner_exit: number | null; runner_output: unknown;
}

/** What a registered runner's program printed (replay_runs.runner_output; `success` is read by the counterfactual). */
const runnerOutputSchema = z.object({ stdout: z.string().optional(), stderr: z.string().optional(), error: z.string().optional() });

/** Every replay run of a trace (unchanged replays under `intervention_id` null), with how far each has come. */
export async function runsOfTrace(traceDbId: number, project: string, origin: string): Promise<{ replays: RunView[]; byIntervention: Map<number, RunView[]> }> {
  const { rows } = await pool().query<Row>(
    `SELECT r.run_key, r.sample, r.served, r.forwarded, r.state, r.intervention_id, r.runner, r.runner_state, r.runner_exit, r.runner_output, g.status AS run_status, t.id AS trace_db_id
     FROM replay_runs r
     LEFT JOIN gateway_runs g ON g.project_id = r.project_id AND g.run_key = r.run_key
     LEFT JOIN traces t ON t.trace_id = 'gw-' || r.run_key
     WHERE r.source_trace_id = $1 ORDER BY r.intervention_id NULLS FIRST, r.sample, r.run_key`,
    [traceDbId],
  );
  const replays: RunView[] = [];
  const byIntervention = new Map<number, RunView[]>();
  for (const r of rows) {
    const replay = runState(r.state, r.run_key);
    const output = r.runner_output === null ? null : storedOrNull(runnerOutputSchema, r.runner_output, () => `replay run ${r.run_key}: runner output`);
    const state: RunView["state"] = r.run_status === "failed" ? "failed" : r.trace_db_id !== null && r.run_status === "stored" ? "stored" : r.run_status === null ? "waiting" : "receiving";
    const view: RunView = {
      run_key: r.run_key, sample: r.sample, base_url: runBaseUrl(origin, project, r.run_key), trace_id: traceIdOfRun(r.run_key), state,
      served: r.served, forwarded: r.forwarded, divergence: replay.divergence, origins: replay.origins, trace_db_id: r.trace_db_id,
      runner: r.runner === null ? null : { name: r.runner, state: r.runner_state, exit: r.runner_exit, stdout: output?.stdout ?? "", stderr: output?.stderr ?? "", error: output?.error ?? null },
    };
    if (r.intervention_id === null) replays.push(view);
    else pushTo(byIntervention, r.intervention_id, view);
  }
  return { replays, byIntervention };
}

export async function interventionsOfTrace(traceDbId: number, project: string, origin: string): Promise<{ interventions: InterventionView[]; replays: RunView[] }> {
  const { rows } = await pool().query<{ id: number; call_id: string; call_index: number; edit: unknown; intent: string; samples: number; params: unknown; created_by: string | null; created_at: Date }>(
    "SELECT id, call_id, call_index, edit, intent, samples, params, created_by, created_at FROM interventions WHERE trace_id = $1 ORDER BY id",
    [traceDbId],
  );
  const { replays, byIntervention } = await runsOfTrace(traceDbId, project, origin);
  return {
    replays,
    interventions: rows.map((i) => ({
      id: i.id, call_id: i.call_id, call_index: i.call_index, edit: interventionEdit(i.edit, `intervention ${i.id}`)!.asked, intent: i.intent, samples: i.samples,
      params: interventionParams(i.params, `intervention ${i.id}`),
      created_by: i.created_by, created_at: i.created_at.toISOString(), runs: byIntervention.get(i.id) ?? [],
    })),
  };
}

/** How often a trace was replayed: its unchanged replays, its interventions and their forks (the trace page's note). */
export async function replayCounts(traceDbId: number): Promise<{ replays: number; interventions: number; forks: number }> {
  const { rows } = await pool().query<{ replays: number; interventions: number; forks: number }>(
    `SELECT count(*) FILTER (WHERE intervention_id IS NULL)::int AS replays, count(DISTINCT intervention_id)::int AS interventions, count(intervention_id)::int AS forks
     FROM replay_runs WHERE source_trace_id = $1`,
    [traceDbId],
  );
  return rows[0]!;
}
