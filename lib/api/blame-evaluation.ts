import { z } from "zod";
import { SPEC_VERSION } from "@/lib/metrics/types";

/**
 * `GET /api/blame/evaluation`'s scores (SPEC.md section 10), as they travel
 * and as a finished scoring stores them (blame_scorings.result): one schema
 * for the answer's check and for reading the stored value back.
 */
const score = z.object({ value: z.number(), low: z.number(), high: z.number(), n: z.number() });
const levelScores = z.object({ top1: score, top3: score, mrr: score });
export const blameScoresSchema = z.object({ n: z.number(), step: levelScores, agent: levelScores });

const methodEvaluation = z.object({
  method: z.string(),
  learned: z.boolean(),
  scores: blameScoresSchema.nullable(),
  not_applicable: z.number(),
  cv: z.object({ k: z.number(), seed: z.number() }).nullable(),
});
const nestedResult = z.object({ family: z.string(), scores: blameScoresSchema, chosen: z.array(z.string()) });
const transferResult = z.object({ method: z.string(), scores: blameScoresSchema, chosen: z.string().optional() });

const systemReport = z.object({
  system: z.string().nullable(),
  traces: z.number(),
  best: z.string().nullable(),
  methods: z.array(methodEvaluation),
  nested: z.array(nestedResult),
  nested_by_task: z.array(nestedResult),
  cross_system: z.object({ trained_on: z.number(), methods: z.array(transferResult) }),
});

const leadingEstimate = z.object({
  label: z.literal("nested CV by task"),
  k: z.number(),
  tasks: z.number(),
  scores: blameScoresSchema.nullable(),
  by_system: z.array(z.object({ system: z.string().nullable(), scores: blameScoresSchema.nullable(), cross_system: blameScoresSchema.nullable() })),
});

const guidedSimulation = z.object({
  method: z.string().nullable(),
  mean_answers: z.number().nullable(),
  plain_mean_answers: z.number().nullable(),
  runs: z.array(z.object({ trace_id: z.string(), events: z.number(), questions: z.array(z.object({ event_id: z.string(), on_track: z.boolean() })), plain_answers: z.number(), found: z.boolean() })),
});

/** Where one scoring (one labelled set) stands. */
export const scoringStatusSchema = z.strictObject({
  state: z.enum(["queued", "running", "done", "failed", "cancelled"]),
  progress: z.number(),
  traces: z.number(),
  queued_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  estimate_seconds: z.number().nullable(),
  error: z.string().optional(),
});

export const blameEvaluationSchema = z.object({
  version: z.literal(SPEC_VERSION),
  filter: z.object({ project: z.string().nullable(), system: z.string().nullable() }),
  traces: z.number(),
  cv: z.object({ k: z.number(), seed: z.number(), by: z.literal("trace") }),
  best: z.string().nullable(),
  methods: z.array(methodEvaluation),
  nested: z.array(nestedResult),
  nested_by_task: z.array(nestedResult).optional(),
  estimate: leadingEstimate.optional(),
  by_system: z.array(systemReport),
  guided: guidedSimulation,
  agreement: z.object({ traces: z.number(), same_event: z.number().nullable(), same_agent: z.number().nullable() }),
  computed_at: z.string(),
});

/** 200: the scores of the labelled set as it is now, with its scoring; 202: the scoring under way and the last scores of the filter. */
export const blameEvaluationAnswer = z.union([
  blameEvaluationSchema.extend({ scoring: scoringStatusSchema }),
  z.strictObject({ scoring: scoringStatusSchema, previous: blameEvaluationSchema.nullable() }),
]);
