import { z } from "zod";
import { defineEndpoint, idParams } from "../contract";
import { apiIntervention, apiRun, confirmedSuspect, effectsResponse, interventionCreated, interventionInput, newRun, replayInput } from "../replay";

/** Replays and interventions of a trace, and their measured effects (SPEC.md section 11, docs/replay.md). */

export const createReplays = defineEndpoint({
  method: "POST",
  path: "/api/traces/{id}/replays",
  params: idParams,
  body: replayInput,
  output: z.object({ runs: z.array(newRun) }),
  errors: ["not_found", "no_upstream"],
});

export const createIntervention = defineEndpoint({
  method: "POST",
  path: "/api/traces/{id}/interventions",
  params: idParams,
  body: interventionInput,
  output: interventionCreated,
  errors: ["not_found", "no_calls", "no_upstream"],
});

export const listInterventions = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/interventions",
  params: idParams,
  output: z.strictObject({ interventions: z.array(apiIntervention), replays: z.array(apiRun), confirmed_by_replay: z.array(confirmedSuspect) }),
  errors: ["not_found"],
});

export const traceEffects = defineEndpoint({
  method: "GET",
  path: "/api/traces/{id}/effects",
  params: idParams,
  /** a preset name, at most 200 characters (default `uniform`) */
  query: z.object({ preset: z.string().optional() }),
  output: effectsResponse,
  errors: ["not_found"],
});
