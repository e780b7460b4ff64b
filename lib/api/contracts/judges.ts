import { z } from "zod";
import { judgeInput, judgePatch, runInput, type ApiJudge } from "@/lib/judges/config";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";
import { FAMILIES } from "@/lib/trace/types";
import { defineEndpoint, idParams, wire } from "../contract";
import { decimalInt } from "../params";

/** LLM judges, their runs over a filter, and their agreement with people (docs/judges.md). A run's status is typed in lib/server/judges/runs.ts. */

const judge = wire<ApiJudge>();

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

const run = wire<object>();

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
  output: z.object({ agreement: z.array(wire<object>()) }),
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

export const judgeRunUnits = defineEndpoint({
  method: "GET",
  path: "/api/judge-runs/{id}/units",
  params: idParams,
  query: z.strictObject({
    state: z.enum(JUDGE_UNIT_STATES).optional(),
    offset: decimalInt(0, 1_000_000_000).default(0),
    limit: decimalInt(1, 500).default(100),
  }),
  output: z.object({ run }),
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
