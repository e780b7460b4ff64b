import { z } from "zod";
import { judgeInput, judgePatch, runInput, type ApiJudge } from "@/lib/judges/config";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";
import { FAMILIES } from "@/lib/trace/types";
import { defineEndpoint, idParams, sameType } from "../contract";
import { decimalInt } from "../params";

/** LLM judges, their runs over a filter, and their agreement with people (docs/judges.md). */

/** A judge as the API returns it (lib/judges/config.ts ApiJudge): never the key, only whether one is set. */
const judge = z.strictObject({
  id: z.number(),
  project: z.string(),
  name: z.string(),
  base_url: z.string(),
  model: z.string(),
  has_api_key: z.boolean(),
  families: z.array(z.string()),
  event_types: z.array(z.string()),
  prompts: z.record(z.string(), z.string()),
  temperature: z.number(),
  max_tokens: z.number(),
  json_schema: z.boolean(),
  created_at: z.string(),
});
sameType<z.output<typeof judge>, ApiJudge>();

export const listJudges = defineEndpoint({
  method: "GET",
  path: "/api/judges",
  output: z.object({ judges: z.array(judge) }),
  errors: [],
});

export const createJudge = defineEndpoint({
  method: "POST",
  path: "/api/judges",
  body: judgeInput,
  output: z.object({ judge }),
  errors: ["conflict"],
});

export const getJudge = defineEndpoint({
  method: "GET",
  path: "/api/judges/{id}",
  params: idParams,
  output: z.object({ judge }),
  errors: ["not_found"],
});

export const updateJudge = defineEndpoint({
  method: "PATCH",
  path: "/api/judges/{id}",
  params: idParams,
  body: judgePatch,
  output: z.object({ judge }),
  errors: ["not_found", "conflict"],
});

export const deleteJudge = defineEndpoint({
  method: "DELETE",
  path: "/api/judges/{id}",
  params: idParams,
  /** 204, no body */
  output: z.null(),
  errors: ["not_found"],
});

/** A run's status (lib/server/judges/runs.ts). */
export const runStatus = z.strictObject({
  id: z.number(),
  judge_id: z.number(),
  state: z.string(),
  total: z.number(),
  done: z.number(),
  failed: z.number(),
  pending: z.number(),
  tokens_in: z.number(),
  tokens_out: z.number(),
  concurrency: z.number(),
  token_budget: z.number().nullable(),
  deadline: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type RunStatus = z.infer<typeof runStatus>;
const run = runStatus;

/** A judge's agreement with people on one judge and family (and system or policy_version): lib/server/judges/labels.ts. */
export const agreementGroup = z.strictObject({
  units: z.number(),
  alpha: z.number().nullable(),
  mean_signed_difference: z.number().nullable(),
  points: z.array(z.strictObject({ judge: z.number(), human_mean: z.number() })),
  judge: z.string(),
  family: z.string(),
  project: z.string(),
  system: z.string().nullable(),
  policy_version: z.string().nullable(),
});
export type AgreementGroup = z.infer<typeof agreementGroup>;

export const listJudgeRuns = defineEndpoint({
  method: "GET",
  path: "/api/judges/{id}/runs",
  params: idParams,
  output: z.object({ runs: z.array(run) }),
  errors: ["not_found"],
});

export const startJudgeRun = defineEndpoint({
  method: "POST",
  path: "/api/judges/{id}/runs",
  params: idParams,
  body: runInput,
  output: z.object({ run }),
  errors: ["not_found", "runner_config"],
});

/** Query of `GET /api/judges/agreement` (an empty value is no filter, as on every route). */
const agreementQuery = z.strictObject({
  project: z.string().max(MAX_ID_LENGTH).optional(),
  judge: z.string().max(100).optional(),
  family: z.enum(FAMILIES).optional(),
  by: z.enum(["judge", "system", "policy_version"]).default("judge"),
});

export const judgeAgreement = defineEndpoint({
  method: "GET",
  path: "/api/judges/agreement",
  query: agreementQuery,
  output: z.object({ agreement: z.array(agreementGroup) }),
  errors: [],
});

export const getJudgeRun = defineEndpoint({
  method: "GET",
  path: "/api/judge-runs/{id}",
  params: idParams,
  output: z.object({ run }),
  errors: ["not_found"],
});

/** A unit's state in a run (the same list as lib/server/judges/units.ts UNIT_STATES; the route checks they agree). */
export const JUDGE_UNIT_STATES = ["failed", "active", "pending", "done"] as const;

/** What a run did with one unit, and the judge's latest answer for it in this run (lib/server/judges/units.ts). */
export const runUnit = z.strictObject({
  trace_id: z.string(),
  /** null for a trace-level unit */
  event_id: z.string().nullable(),
  family: z.string(),
  state: z.string(),
  value: z.number().nullable(),
  reason: z.string().nullable(),
  /** the reply as the model sent it, when it could not be read strictly */
  raw: z.string().nullable(),
  error: z.string().nullable(),
  model: z.string().nullable(),
  latency_ms: z.number().nullable(),
  tokens_in: z.number().nullable(),
  tokens_out: z.number().nullable(),
  answered_at: z.string().nullable(),
});
export type RunUnit = z.infer<typeof runUnit>;

export const runUnitsPage = z.strictObject({
  units: z.array(runUnit),
  /** units of the run in the asked state (all states when none was asked) */
  total: z.number(),
  counts: z.record(z.enum(JUDGE_UNIT_STATES), z.number()),
  offset: z.number(),
  limit: z.number(),
});
export type RunUnitsPage = z.infer<typeof runUnitsPage>;

export const judgeRunUnits = defineEndpoint({
  method: "GET",
  path: "/api/judge-runs/{id}/units",
  params: idParams,
  query: z.strictObject({
    state: z.enum(JUDGE_UNIT_STATES).optional(),
    offset: decimalInt(0, 1_000_000_000).default(0),
    limit: decimalInt(1, 500).default(100),
  }),
  output: runUnitsPage.extend({ run }),
  errors: ["not_found"],
});

export const cancelJudgeRun = defineEndpoint({
  method: "POST",
  path: "/api/judge-runs/{id}/cancel",
  params: idParams,
  output: z.object({ run }),
  errors: ["not_found"],
});

/** Body of a resume: new budgets, or none (then they stay as they were). */
export const resumeInput = z.strictObject({
  token_budget: z.number().int().positive().nullable().optional(),
  time_budget_seconds: z.number().int().positive().nullable().optional(),
});

export const resumeJudgeRun = defineEndpoint({
  method: "POST",
  path: "/api/judge-runs/{id}/resume",
  params: idParams,
  body: resumeInput,
  bodyOptional: true,
  output: z.object({ run }),
  errors: ["not_found"],
});
