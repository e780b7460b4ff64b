import { z } from "zod";
import { EDIT_INTENTS, editSchema, forkParamsSchema } from "../replay/edit";
import { MAX_ID_LENGTH } from "../trace/limits";

/**
 * Replays, interventions and measured effects (SPEC.md section 11,
 * docs/replay.md): the inputs of `POST /api/traces/{id}/replays` and
 * `POST /api/traces/{id}/interventions`.
 */

export const MAX_SAMPLES = 20;

/** a registered runner's name (docs/replay.md "Runners"): Baton runs the program for each run key */
const runner = z.string().min(1).max(64).optional();

export const replayInput = z.strictObject({
  samples: z.number().int().min(1).max(MAX_SAMPLES).default(1),
  runner,
});

export const interventionInput = z.strictObject({
  call_id: z.string().min(1).max(MAX_ID_LENGTH),
  edit: editSchema,
  /** what the edit does to the call: remove and neutralise enter agreement with the sign reversed */
  intent: z.enum(EDIT_INTENTS).default("correct"),
  samples: z.number().int().min(1).max(MAX_SAMPLES).default(1),
  /** upstream parameters for the fork's live calls, over the program's own */
  params: forkParamsSchema.optional(),
  runner,
});

/** How far a replay run has come: no call yet, calls arriving, stored as its trace, or failed to store. */
export const RUN_STATES = ["waiting", "receiving", "stored", "failed"] as const;

/** One measured call of `GET /api/traces/{id}/effects` (SPEC.md section 11). */
export interface EffectsCall {
  call_id: string;
  call_index: number;
  effect: number | null;
  low: number | null;
  high: number | null;
  samples: number;
  divergences: number;
  pending: number;
  signed_effect: number | null;
  confirmed_by_replay: boolean | null;
  credit: Record<string, number | null>;
  interventions: { id: number; intent: string }[];
}
/** `GET /api/traces/{id}/effects`. */
export interface EffectsResponse {
  trace_id: string;
  preset: string;
  baseline: { kind: string; runs: string[]; outcomes: number[] };
  calls: EffectsCall[];
  agreement: Record<string, { spearman: number | null; calls: number }>;
}

/** One replay run as the replay endpoints return it (fields the browser reads). */
export interface ApiRun {
  run_key: string;
  sample: number;
  base_url: string;
  trace_id: string;
  state?: string;
  divergence?: unknown;
  runner?: { name: string; state: string | null; exit: number | null } | null;
}
/** An intervention with its runs (`GET /api/traces/{id}/interventions`). */
export interface ApiIntervention {
  id: number;
  call_id: string;
  intent: string;
  samples: number;
  runs: ApiRun[];
}
/** `POST /api/traces/{id}/interventions`. */
export interface InterventionCreated {
  intervention: { id: number; call_id: string; intent: string; samples: number };
  runs: ApiRun[];
}

/** A call whose corrections turned the failed run into a success (`confirmed_by_replay` of GET /api/traces/{id}/blame and …/interventions; docs/replay.md "Confirmed by replay"). */
export const confirmedSuspect = z.strictObject({
  call_id: z.string(),
  call_index: z.number(),
  agent: z.string(),
  /** the events the call produced: a ranked suspect among them is confirmed */
  event_ids: z.array(z.string()),
  interventions: z.array(z.number()),
  samples: z.number(),
  succeeded: z.number(),
  effect: z.number(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  /** the evidence in words, e.g. for the decisive error's reason */
  evidence: z.string(),
});
export type ConfirmedSuspect = z.infer<typeof confirmedSuspect>;
