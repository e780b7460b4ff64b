import { z } from "zod";
import { EDIT_INTENTS, editSchema, forkParamsSchema } from "../replay/edit";
import { CREDIT_METHODS } from "../credit";
import { SPEC_VERSION } from "../metrics/types";
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

const interval = { effect: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable() };
const meanInterval = z.strictObject({ mean: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), n: z.number() });

/** One measured call of `GET /api/traces/{id}/effects` (SPEC.md section 11; lib/server/replay/effects.ts). */
export const effectsCall = z.strictObject({
  call_id: z.string(),
  call_index: z.number(),
  /** the pooled effect of the call's interventions (lib/replay/effects.ts Effect) */
  ...interval,
  forks: meanInterval,
  baseline: meanInterval,
  binary: z.boolean(),
  /** measured fork runs (stored, no divergence), diverged runs, runs not stored yet */
  samples: z.number(),
  divergences: z.number(),
  pending: z.number(),
  /** the effect as it enters agreement: the mean over its interventions of their effects, reversed for removal and neutralising edits */
  signed_effect: z.number().nullable(),
  /** the call's corrections turned a failed run into a success in a majority of >= 3 of their samples (null: no correction, or cannot say) */
  confirmed_by_replay: z.boolean().nullable(),
  /** the forks of the call's corrections pooled (null when it has none) */
  corrections: z.strictObject({ samples: z.number(), succeeded: z.number(), ...interval }).nullable(),
  credit: z.record(z.enum(CREDIT_METHODS), z.number().nullable()),
  interventions: z.array(z.strictObject({ id: z.number(), intent: z.string(), ...interval, samples: z.number(), divergences: z.number(), pending: z.number() })),
});
export type EffectsCall = z.infer<typeof effectsCall>;

/** `GET /api/traces/{id}/effects`. */
export const effectsResponse = z.strictObject({
  version: z.literal(SPEC_VERSION),
  trace_id: z.string(),
  preset: z.string(),
  /** what the forks are compared with: the unchanged replays' outcomes, else the original run's */
  baseline: z.strictObject({ kind: z.enum(["replays", "original"]), runs: z.array(z.string()), outcomes: z.array(z.number()) }),
  calls: z.array(effectsCall),
  agreement: z.record(z.enum(CREDIT_METHODS), z.strictObject({ spearman: z.number().nullable(), calls: z.number() })),
});
export type EffectsResponse = z.infer<typeof effectsResponse>;

/** A run key handed out for a replay or a fork, and where the program is pointed. */
export const newRun = z.strictObject({ run_key: z.string(), sample: z.number(), base_url: z.string(), trace_id: z.string() });

/** One replay run with how far it has come (lib/server/replay/list.ts). */
export const apiRun = newRun.extend({
  state: z.enum(RUN_STATES),
  served: z.number(),
  forwarded: z.number(),
  /** the first request that did not match the recording (lib/replay/plan.ts Divergence) */
  divergence: z.strictObject({ call_index: z.number(), expected_call_id: z.string().nullable(), agent: z.string() }).nullable(),
  /** how each request so far was answered, in arrival order */
  origins: z.array(z.enum(["record", "edit", "live"])),
  /** the registered runner and how its program ran (null without one) */
  runner: z.strictObject({ name: z.string(), state: z.string().nullable(), exit: z.number().nullable(), stdout: z.string(), stderr: z.string(), error: z.string().nullable() }).nullable(),
});
export type ApiRun = z.infer<typeof apiRun>;

/** An intervention with its runs (`GET /api/traces/{id}/interventions`). */
export const apiIntervention = z.strictObject({
  id: z.number(),
  call_id: z.string(),
  call_index: z.number(),
  /** the edit as asked */
  edit: editSchema,
  intent: z.string(),
  samples: z.number(),
  params: forkParamsSchema.nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  runs: z.array(apiRun),
});
export type ApiIntervention = z.infer<typeof apiIntervention>;

/** `POST /api/traces/{id}/interventions`: the intervention and one fork run key per sample. */
export const interventionCreated = z.strictObject({
  intervention: z.strictObject({
    id: z.number(),
    call_id: z.string(),
    call_index: z.number(),
    edit: editSchema,
    intent: z.enum(EDIT_INTENTS),
    samples: z.number(),
    params: forkParamsSchema.nullable(),
    runner: z.string().nullable(),
  }),
  runs: z.array(newRun),
});
export type InterventionCreated = z.infer<typeof interventionCreated>;

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
