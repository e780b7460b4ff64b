import { z } from "zod";
import { defineEndpoint, idParams, wire } from "../contract";
import { interventionInput, replayInput, type ApiIntervention, type ApiRun, type ConfirmedSuspect, type EffectsResponse, type InterventionCreated } from "../replay";

/** Replays and interventions of a trace, and their measured effects (SPEC.md section 11, docs/replay.md). */

export const createReplays = defineEndpoint({
  method: "POST",
  path: "/api/traces/{id}/replays",
  params: idParams,
  body: replayInput,
  output: z.object({ runs: z.array(z.object({ run_key: z.string(), sample: z.number(), base_url: z.string(), trace_id: z.string() })) }),
  errors: ["not_found", "no_upstream"],
});

export const createIntervention = defineEndpoint({
  method: "POST",
  path: "/api/traces/{id}/interventions",
  params: idParams,
  body: interventionInput,
  output: wire<InterventionCreated>(),
  errors: ["not_found", "no_calls", "no_upstream"],
});

export const listInterventions = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/interventions",
  params: idParams,
  output: wire<{ interventions: ApiIntervention[]; replays: ApiRun[]; confirmed_by_replay: ConfirmedSuspect[] }>(),
  errors: ["not_found"],
});

export const traceEffects = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/effects",
  params: idParams,
  /** a preset name, at most 200 characters (default `uniform`) */
  query: z.object({ preset: z.string().optional() }),
  output: wire<EffectsResponse>(),
  errors: ["not_found"],
});
