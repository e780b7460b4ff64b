import { z } from "zod";
import { JUDGE_MODES } from "@/lib/blame/judge";
import type { DashboardModel } from "@/lib/dashboard/types";
import { dashboardApiQuery, dashboardFilterShape } from "@/lib/dashboard/query";
import type { DecisionReport } from "@/lib/decisions/analytics";
import { BUCKET_DIMENSIONS, DECISIONS } from "@/lib/decisions/buckets";
import { decisionFilter } from "@/lib/decisions/query";
import type { CollusionRow } from "@/lib/hacking/collusion";
import { DIAGNOSTICS_VERSION } from "@/lib/hacking/types";
import { MAX_ID_LENGTH } from "@/lib/trace/limits";
import { FAMILIES, TOPOLOGIES } from "@/lib/trace/types";
import { blameEvaluationAnswer } from "../blame-evaluation";
import { defineEndpoint, sameType } from "../contract";
import { decimalInt, filterText } from "../params";
import { specVersion, successRate } from "../shapes";

/** Views over many traces: the dashboard, decision analytics, hacking diagnostics, attribution scoring and judge attributions (docs/api.md). */

const text = filterText.optional();

const bar = z.strictObject({ key: z.string(), label: z.string(), count: z.number(), null: z.boolean() });
const rate = z.strictObject({ rate: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), n: z.number() });
const trend = z.strictObject({
  by: z.enum(["day", "policy"]),
  title: z.string(),
  x_label: z.string(),
  points: z.array(z.strictObject({ key: z.string(), label: z.string(), traces: z.number(), e1: rate, means: z.record(z.string(), z.number().nullable()), joined: z.boolean() })),
});

/** The dashboard's model (lib/dashboard/types.ts). */
export const dashboardModel = z.strictObject({
  version: specVersion,
  scope: z.string(),
  traces: z.number(),
  e1: rate.extend({ successes: z.number(), bars: z.array(bar) }),
  histograms: z.array(
    z.strictObject({
      metric: z.string(),
      section: z.enum(["e2", "e3", "e4"]),
      label: z.string(),
      kind: z.enum(["count", "real", "unit", "boolean"]),
      bars: z.array(bar),
      edges: z.array(z.number()),
      values: z.number(),
      nulls: z.number(),
      clipped: z.boolean(),
      clipped_below: z.number(),
      clipped_above: z.number(),
      y_max: z.number(),
    }),
  ),
  verdicts: z.strictObject({ bars: z.array(bar), y_max: z.number() }),
  trends: z.strictObject({ day: trend, policy: trend }),
});
sameType<z.output<typeof dashboardModel>, DashboardModel>();

const decisionKey = z.enum(DECISIONS.map((d) => d.key));
const outcome = { traces: z.number(), e1: successRate, mean_r_total: z.number().nullable() };

/** Decision analytics (lib/decisions/analytics.ts). */
export const decisionReport = z.strictObject({
  version: specVersion,
  traces: z.number(),
  caveat: z.string(),
  overall: z.strictObject(outcome),
  decisions: z.array(
    z.strictObject({
      key: decisionKey,
      label: z.string(),
      question: z.string(),
      taken: z.strictObject(outcome),
      not_taken: z.strictObject(outcome),
      within_group: z.strictObject({
        method: z.literal("mantel_haenszel_risk_difference"),
        estimate: z.number().nullable(),
        low: z.number().nullable(),
        high: z.number().nullable(),
        groups: z.number(),
        with: z.number(),
        without: z.number(),
      }),
      buckets: z.array(z.strictObject({ by: z.enum(BUCKET_DIMENSIONS.map((b) => b.by)), label: z.string(), rows: z.array(z.strictObject({ bucket: z.string(), ...outcome })) })),
    }),
  ),
  checkpoints: z.array(z.strictObject({ policy_version: z.string().nullable(), ...outcome, taken: z.record(decisionKey, z.number()) })),
});
sameType<z.output<typeof decisionReport>, DecisionReport>();

const collusionRow = z.strictObject({
  project: z.string(),
  judge: z.string(),
  family: z.string(),
  policy_version: z.string(),
  units: z.number(),
  mean_signed_difference: z.number().nullable(),
  baseline_policy_version: z.string().nullable(),
  value: z.number().nullable(),
  threshold: z.number(),
  flagged: z.boolean(),
});
sameType<z.output<typeof collusionRow>, CollusionRow>();

/** `GET /api/diagnostics/collusion` (lib/server/hacking/queries.ts). */
export const collusionAnswer = z.strictObject({ version: specVersion, diagnostics_version: z.literal(DIAGNOSTICS_VERSION), threshold: z.number(), min_units: z.number(), rows: z.array(collusionRow) });
export type CollusionAnswer = z.infer<typeof collusionAnswer>;

/** What a judge said of one trace (`POST /api/blame/judge`, lib/server/blame/judge.ts). */
export const attributionOutcome = z.strictObject({
  trace_id: z.string(),
  method: z.string(),
  event_id: z.string().nullable(),
  agent: z.string().nullable(),
  reason: z.string().nullable(),
  questions: z.number(),
  error: z.string().nullable(),
});
export type AttributionOutcome = z.infer<typeof attributionOutcome>;

export const dashboard = defineEndpoint({
  method: "GET",
  path: "/api/dashboard",
  /** the dashboard filter (lib/dashboard/query.ts), then `judges` */
  query: dashboardApiQuery,
  output: dashboardModel,
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
  output: decisionReport,
  errors: [],
});

export const collusion = defineEndpoint({
  method: "GET",
  path: "/api/diagnostics/collusion",
  query: z.strictObject({ project: z.string().max(MAX_ID_LENGTH).optional(), judge: z.string().max(100).optional(), family: z.enum(FAMILIES).optional() }),
  output: collusionAnswer,
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
  output: blameEvaluationAnswer,
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
  output: z.object({ version: z.string(), judge: z.string(), mode: z.enum(JUDGE_MODES), outcomes: z.array(attributionOutcome) }),
  errors: ["not_found"],
});
