import { z } from "zod";
import { JUDGE_MODES } from "@/lib/blame/judge";
import type { DashboardModel } from "@/lib/dashboard/types";
import { dashboardApiQuery, dashboardFilterShape } from "@/lib/dashboard/query";
import type { DecisionReport } from "@/lib/decisions/analytics";
import { decisionFilter } from "@/lib/decisions/query";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";
import { FAMILIES, TOPOLOGIES } from "@/lib/trace/types";
import { defineEndpoint, wire } from "../contract";
import { decimalInt, filterText } from "../params";

/** Views over many traces: the dashboard, decision analytics, hacking diagnostics, attribution scoring and judge attributions (docs/api.md). */

const text = filterText.optional();

export const dashboard = defineEndpoint({
  method: "GET",
  path: "/api/dashboard",
  /** the dashboard filter (lib/dashboard/query.ts), then `judges` */
  query: dashboardApiQuery,
  output: wire<DashboardModel>(),
  errors: [],
});

export const dashboardBarTraces = defineEndpoint({
  method: "GET",
  path: "/api/dashboard/traces",
  query: z
    .strictObject({ ...dashboardFilterShape, bar: z.string().max(600), limit: decimalInt(1, 1000).default(100) })
    .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["to"] }),
  output: z.object({ bar: z.string(), title: z.string(), limit: z.number(), total: z.number(), traces: z.array(z.object({ trace_id: z.string() })) }),
  errors: [],
});

export const decisions = defineEndpoint({
  method: "GET",
  path: "/api/decisions",
  query: decisionFilter,
  output: wire<DecisionReport>(),
  errors: [],
});

export const collusion = defineEndpoint({
  method: "GET",
  path: "/api/diagnostics/collusion",
  query: z.strictObject({ project: z.string().max(MAX_ID_LENGTH).optional(), judge: z.string().max(100).optional(), family: z.enum(FAMILIES).optional() }),
  output: wire<object>(),
  errors: [],
});

export const flagTrend = defineEndpoint({
  method: "GET",
  path: "/api/diagnostics/trend",
  query: z.strictObject({ project: text, system: text, task_id: text, group_id: text, topology: z.enum(TOPOLOGIES).optional() }),
  output: z.object({ version: z.string(), diagnostics_version: z.string(), points: z.array(z.object({ policy_version: z.string().nullable(), traces: z.number(), diagnosed: z.number(), detectors: z.record(z.string(), z.object({ flagged: z.number(), rate: z.number().nullable() })) })) }),
  errors: [],
});

export const blameEvaluation = defineEndpoint({
  method: "GET",
  path: "/api/blame/evaluation",
  query: z.strictObject({ project: text, system: text }),
  /** 200 with the scores and `scoring`, or 202 `{scoring, previous}` while they are computed */
  output: z.object({ scoring: z.object({ state: z.string() }) }),
  errors: [],
});

export const cancelBlameEvaluation = defineEndpoint({
  method: "DELETE",
  path: "/api/blame/evaluation",
  query: z.strictObject({ project: filterText, system: text }),
  output: z.object({ cancelled: z.boolean() }),
  errors: [],
});

export const judgeAttributions = defineEndpoint({
  method: "POST",
  path: "/api/blame/judge",
  body: z.strictObject({
    judge_id: z.number().int().positive(),
    mode: z.enum(JUDGE_MODES).default("all_at_once"),
    trace_ids: z.array(z.string().min(1).max(512)).min(1).max(200),
  }),
  output: z.object({ version: z.string(), judge: z.string(), mode: z.enum(JUDGE_MODES), outcomes: z.array(z.unknown()) }),
  errors: ["not_found"],
});
